"""Render one table scene with Blender's path tracer (Cycles): tiles as solid, bevelled, glossy bodies.

Run by :mod:`training.blender_scenes` in an interpreter that has Blender's Python module (``bpy``,
from PyPI), never imported by the project's own code: it needs nothing but ``bpy`` and the standard
library. ``python blender_render.py SPEC.json OUT.png LABELS.json`` reads a scene spec written by
:func:`training.blender_scenes.scene_spec`, renders it and writes the image and the labels: for
every tile, its code, its pose and the four corners of its face in image pixels (clockwise from the
top-left of the upright face; of its back where it lies face down), and whether they lie in the frame.

Units are metres. A tile is two bevelled boxes stacked, the face layer (ivory or white) over the
back layer (the set's colour), as most Chinese sets are made; the face is a thin plate inset into
the top of the face layer, carrying the face image, under a clear glossy coat (the glare of a
real tile under a lamp). The table is a plane carrying a photo of a surface; a large soft area
light stands for a ceiling lamp, a second smaller one for a window or a desk lamp.
"""

from __future__ import annotations

import json
import math
import sys

import bpy  # type: ignore[import-not-found]
from bpy_extras.object_utils import world_to_camera_view  # type: ignore[import-not-found]
from mathutils import Euler, Vector  # type: ignore[import-not-found]


def _material(name: str, colour, roughness: float, coat: float, image: str | None = None):
    """A principled material of ``colour`` (linear RGB), or of ``image`` where given."""
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Roughness"].default_value = roughness
    bsdf.inputs["Coat Weight"].default_value = coat
    bsdf.inputs["Coat Roughness"].default_value = 0.06
    if image:
        tex = mat.node_tree.nodes.new("ShaderNodeTexImage")
        tex.image = bpy.data.images.load(image)
        tex.extension = "EXTEND"
        mat.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    else:
        bsdf.inputs["Base Color"].default_value = (*colour, 1.0)
    return mat


def _box(name: str, size, centre, bevel: float, mat):
    """A bevelled box of ``size`` (x, y, z) centred at ``centre``."""
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=centre)
    ob = bpy.context.object
    ob.name = name
    ob.scale = size
    bpy.ops.object.transform_apply(scale=True)
    mod = ob.modifiers.new("bevel", "BEVEL")
    mod.width = bevel
    mod.segments = 3
    mod.limit_method = "NONE"
    ob.data.materials.append(mat)
    bpy.ops.object.shade_smooth()
    return ob


def _plate(name: str, w: float, h: float, z: float, mat):
    """A face plate ``w`` x ``h`` at height ``z``, its image upright along +y."""
    bpy.ops.mesh.primitive_plane_add(size=1.0, location=(0, 0, z))
    ob = bpy.context.object
    ob.name = name
    ob.scale = (w, h, 1.0)
    bpy.ops.object.transform_apply(scale=True)
    ob.data.materials.append(mat)
    return ob


def _tile(i: int, t: dict, style: dict, materials: dict):
    """One tile: its objects parented to an empty placed and turned as ``t`` says; the four corners
    in world space of its face (top-left, top-right, bottom-right, bottom-left of the upright face),
    or of its back where it lies face down."""
    w, h, d = style["w"], style["h"], style["d"]
    bevel = style["bevel"] * w
    face_d = d * (1.0 - style["back_share"])
    back_d = d - face_d
    bpy.ops.object.empty_add(location=(0, 0, 0))
    root = bpy.context.object
    root.name = f"tile{i}"
    parts = [
        _box(f"tile{i}-face", (w, h, face_d), (0, 0, back_d + face_d / 2), bevel, materials["body"]),
        _box(f"tile{i}-back", (w, h, back_d), (0, 0, back_d / 2), bevel, materials["back"]),
    ]
    inset = style["inset"]
    fw, fh = w * (1 - 2 * inset), h * (1 - 2 * inset * w / h)
    if t.get("face"):
        key = t["face"]
        if key not in materials:
            materials[key] = _material(f"face{len(materials)}", None, style["roughness"], style["coat"], key)
        parts.append(_plate(f"tile{i}-plate", fw, fh, d + 0.0002, materials[key]))
    for p in parts:
        p.parent = root
    # the tile's own frame: lying face up, face upright along +y; standing: turned up about x so
    # the face looks along -y; face down: turned over about y
    pose = t.get("pose", "flat")
    base = {"flat": (0, 0, 0), "standing": (math.pi / 2, 0, 0), "down": (0, math.pi, 0)}[pose]
    lift = {"flat": 0.0, "standing": h / 2, "down": d}[pose]
    root.rotation_mode = "ZXY"
    root.rotation_euler = Euler((base[0], base[1], math.radians(t.get("turn", 0.0))), "ZXY")
    root.location = (t["x"], t["y"], lift + t.get("z", 0.0))
    bpy.context.view_layer.update()
    # the face's corners; a tile lying face down shows its back instead, the other side up (z 0)
    z = 0.0 if pose == "down" else d
    corners = [
        Vector((-fw / 2, fh / 2, z)),
        Vector((fw / 2, fh / 2, z)),
        Vector((fw / 2, -fh / 2, z)),
        Vector((-fw / 2, -fh / 2, z)),
    ]
    return [root.matrix_world @ c for c in corners]


def render(spec: dict, out_png: str, out_labels: str) -> None:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = int(spec.get("samples", 24))
    scene.cycles.use_denoising = True
    scene.cycles.max_bounces = 4
    scene.render.resolution_x, scene.render.resolution_y = spec["size"]
    scene.render.resolution_percentage = 100
    scene.render.image_settings.file_format = "PNG"
    scene.view_settings.view_transform = spec.get("view_transform", "AgX")
    scene.view_settings.exposure = float(spec.get("exposure", 0.0))
    world = bpy.data.worlds.new("world")
    scene.world = world
    world.use_nodes = True
    bg = world.node_tree.nodes["Background"]
    bg.inputs["Color"].default_value = (*spec["world"]["colour"], 1.0)
    bg.inputs["Strength"].default_value = spec["world"]["strength"]

    table = spec["table"]
    bpy.ops.mesh.primitive_plane_add(size=table["size"], location=(0, 0, 0))
    plane = bpy.context.object
    plane.data.materials.append(
        _material("table", table.get("colour", (0.3, 0.3, 0.3)), table["roughness"], 0.0, table.get("image"))
    )

    style = spec["style"]
    materials = {
        "body": _material("body", style["body"], style["roughness"], style["coat"]),
        "back": _material("back", style["back"], style["roughness"], style["coat"]),
    }
    labels = []
    corners = []
    for i, t in enumerate(spec["tiles"]):
        world_corners = _tile(i, t, style, materials)
        corners.append(world_corners)
    for light in spec["lights"]:
        data = bpy.data.lights.new(light["name"], type="AREA")
        data.energy = light["energy"]
        data.size = light["size"]
        data.color = light.get("colour", (1.0, 1.0, 1.0))
        ob = bpy.data.objects.new(light["name"], data)
        scene.collection.objects.link(ob)
        ob.location = light["location"]
        direction = Vector((0, 0, 0)) - Vector(light["location"])
        ob.rotation_euler = direction.to_track_quat("-Z", "Y").to_euler()

    cam_spec = spec["camera"]
    cam_data = bpy.data.cameras.new("camera")
    cam_data.lens = cam_spec["lens"]
    cam_data.sensor_width = 36.0
    cam_data.sensor_fit = "HORIZONTAL" if spec["size"][0] >= spec["size"][1] else "VERTICAL"
    cam = bpy.data.objects.new("camera", cam_data)
    scene.collection.objects.link(cam)
    scene.camera = cam
    cam.location = cam_spec["location"]
    look = Vector(cam_spec["target"]) - Vector(cam_spec["location"])
    cam.rotation_euler = look.to_track_quat("-Z", "Y").to_euler()
    cam.rotation_euler.rotate_axis("Z", math.radians(cam_spec.get("roll", 0.0)))
    bpy.context.view_layer.update()

    W, H = spec["size"]
    for t, world_corners in zip(spec["tiles"], corners):
        pts = []
        for c in world_corners:
            v = world_to_camera_view(scene, cam, c)
            pts.append([v.x * W, (1.0 - v.y) * H])
        visible = all(0 <= x < W and 0 <= y < H for x, y in pts)
        labels.append({"code": t.get("code"), "quad": pts, "pose": t.get("pose", "flat"), "in_frame": visible})
    scene.render.filepath = out_png
    bpy.ops.render.render(write_still=True)
    with open(out_labels, "w") as f:
        json.dump({"tiles": labels, "size": [W, H]}, f)


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        render(json.load(f), sys.argv[2], sys.argv[3])
