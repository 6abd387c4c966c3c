// Small DOM helpers. Every piece of text goes in through textContent or text nodes, never
// as HTML, so user input can never become markup.

const PROPERTIES = new Set(['value', 'checked', 'disabled', 'hidden', 'htmlFor', 'tabIndex', 'type', 'multiple']);

/** Creates an element: h('button', {class: 'btn', onclick: fn, text: 'OK'}, child, …). */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  if (props) {
    for (const [key, value] of Object.entries(props)) {
      if (value == null || value === false) continue;
      if (key === 'class') el.className = value;
      else if (key === 'text') el.textContent = value;
      else if (key === 'dataset') Object.assign(el.dataset, value);
      else if (key === 'style') Object.assign(el.style, value);
      else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
      else if (PROPERTIES.has(key)) el[key] = value;
      else el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

/** Appends children: nodes, strings (as text), arrays, and skips null/false. */
export function append(el, children) {
  for (const child of children) {
    if (child == null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

/** Runs fn at most once per animation frame. */
export function rafThrottle(fn) {
  let queued = false;
  return (...args) => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; fn(...args); });
  };
}

export function debounce(fn, ms) {
  let timer = null;
  const wrapped = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
  wrapped.cancel = () => clearTimeout(timer);
  return wrapped;
}

export const prefersReducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;
export const isDesktop = () => window.matchMedia('(min-width: 900px)').matches;

/** A URL safe to put in an <img src> or <a href>: our own media, or http(s). */
export function safeURL(url) {
  if (typeof url !== 'string' || !url) return null;
  if (url.startsWith('/v1/media/')) return url;
  try {
    const parsed = new URL(url, location.href);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

let uniqueCounter = 0;
export const uid = (prefix = 'p') => `${prefix}-${++uniqueCounter}`;

/** Makes parent's children exactly `nodes`, in order, moving only what is out of place. */
export function syncChildren(parent, nodes) {
  const wanted = new Set(nodes);
  for (const child of [...parent.children]) if (!wanted.has(child)) child.remove();
  nodes.forEach((node, index) => {
    if (parent.children[index] !== node) parent.insertBefore(node, parent.children[index] || null);
  });
}

/** Fills el with text, emoji wrapped in <span class="emoji"> for the colour emoji font. */
export function setTextWithEmoji(el, text, split) {
  el.replaceChildren();
  for (const part of split(String(text ?? ''))) {
    if (part.emoji) el.appendChild(h('span', { class: 'emoji', text: part.emoji }));
    else el.appendChild(document.createTextNode(part.text));
  }
  return el;
}
