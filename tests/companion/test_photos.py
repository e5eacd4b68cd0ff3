"""A table's hand photos: stored, served back, linked to the recorded hand."""

from __future__ import annotations

import io

from .helpers import E2E_PHOTO, WIN_S, err, new_table


def test_table_photo_is_stored_and_linked_to_the_hand(client):
    t = new_table(client)["table"]["token"]
    jpeg = E2E_PHOTO.read_bytes()
    resp = client.post(
        f"/api/tables/{t}/photos", data={"photo": (io.BytesIO(jpeg), "h.jpg")}, content_type="multipart/form-data"
    )
    assert resp.status_code == 201
    pid = resp.json["photo_id"]
    assert [x["code"] for x in resp.json["tiles"]] == ["1m", "2m", "3m"]
    assert client.get(f"/api/tables/{t}/photos/{pid}").data == jpeg
    resp = client.post(f"/api/tables/{t}/hands", json={"winners": [WIN_S], "photo_id": pid})
    assert resp.status_code == 201 and resp.json["changes"]["entries"][-1]["photo_id"] == pid
    resp = client.post(f"/api/tables/{t}/hands", json={"winners": [WIN_S], "photo_id": 999})
    assert resp.status_code == 400 and err(resp)["field"] == "photo_id"
