// Element helpers: build HTML and SVG elements, replace contents, delegate events, show errors
// and a short notice. Rendering code builds elements with these; wiring code attaches handlers.

const SVG_NS = "http://www.w3.org/2000/svg";

/** The element with this id. @param {string} id @returns {HTMLElement} */
export function byId(id) {
  return /** @type {HTMLElement} */ (document.getElementById(id));
}

function present(kid) {
  return kid !== null && kid !== undefined && kid !== false;
}

/**
 * An HTML element. Attributes: `class`, `text`, `dataset` (an object), `style` (set through the
 * CSSOM, which the page's Content-Security-Policy allows where a style attribute is not), anything
 * else as an attribute (true as an empty value; null, undefined and false leave it out). Children: nodes,
 * strings and numbers, nested arrays; null, undefined and false are skipped.
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...any} kids
 * @returns {HTMLElement}
 */
export function element(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (!present(v)) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "style") el.style.cssText = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (present(kid)) el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

/**
 * An SVG element: `text` sets its text, anything else is an attribute.
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...any} kids
 * @returns {SVGElement}
 */
export function svgElement(tag, attrs, ...kids) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") el.textContent = v;
    else el.setAttribute(k, v);
  }
  for (const kid of kids.flat()) if (kid) el.append(kid);
  return el;
}

/** Replace an element's children (nested arrays flattened, empty entries skipped). */
export function replaceChildren(el, ...kids) {
  el.replaceChildren(...kids.flat(2).filter(present));
  return el;
}

/**
 * Delegated event handling: `handler(match, event)` runs for every `type` event inside `root`
 * whose target lies in an element matching `selector` (the closest one, within `root`).
 * @param {Element} root
 * @param {string} type
 * @param {string} selector
 * @param {(match: HTMLElement, event: Event) => void} handler
 */
export function onEvent(root, type, selector, handler) {
  root.addEventListener(type, (event) => {
    const match = event.target instanceof Element ? event.target.closest(selector) : null;
    if (match && root.contains(match)) handler(/** @type {HTMLElement} */ (match), event);
  });
}

/** Show `message` in the error paragraph with this id, or hide it when the message is empty. */
export function showError(id, message) {
  const el = byId(id);
  el.textContent = message || "";
  el.hidden = !message;
}

/** Show `message` in an error paragraph element (sheets build their own). */
export function showErrorIn(el, message) {
  el.textContent = message || "";
  el.hidden = !message;
}

let toastTimer = 0;
/** A short notice at the bottom of the page for 2.6 seconds. */
export function toast(message) {
  const el = byId("toast");
  el.textContent = message;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    el.hidden = true;
  }, 2600);
}

/** Show one screen section (`screen-<name>`), hide the others, scroll to the top. */
export function showScreen(name) {
  for (const el of document.querySelectorAll(".screen")) el.hidden = el.id !== "screen-" + name;
  window.scrollTo(0, 0);
}
