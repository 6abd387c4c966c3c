// Parley's icons: simple 24×24 line drawings made for Parley, built with DOM APIs.

const NS = 'http://www.w3.org/2000/svg';

// Each icon: a list of shapes. Strings are path data; objects are circles or rects.
const ICONS = {
  chats: ['M6.5 3h11A2.5 2.5 0 0 1 20 5.5v8a2.5 2.5 0 0 1-2.5 2.5H11l-4.5 4v-4A2.5 2.5 0 0 1 4 13.5v-8A2.5 2.5 0 0 1 6.5 3z',
    { c: [8.5, 9.5, 1.1], fill: true }, { c: [12, 9.5, 1.1], fill: true }, { c: [15.5, 9.5, 1.1], fill: true }],
  contacts: [{ c: [12, 8, 3.6] }, 'M4.8 20c.6-3.6 3.5-6 7.2-6s6.6 2.4 7.2 6'],
  discover: [{ c: [12, 12, 9] }, 'M15.8 8.2l-2.1 5.5-5.5 2.1 2.1-5.5z'],
  me: [{ c: [12, 12, 9] }, { c: [12, 10, 3] }, 'M6.7 18.3c1.2-2.1 3.1-3.3 5.3-3.3s4.1 1.2 5.3 3.3'],
  plus: ['M12 5v14M5 12h14'],
  back: ['M15 5l-7 7 7 7'],
  chevron: ['M9.5 5.5l6.5 6.5-6.5 6.5'],
  more: [{ c: [6, 12, 1.6], fill: true }, { c: [12, 12, 1.6], fill: true }, { c: [18, 12, 1.6], fill: true }],
  info: [{ c: [12, 12, 9] }, 'M12 11v5.5', { c: [12, 7.8, 1.1], fill: true }],
  send: ['M4.5 11.6L19.6 4.4c.5-.2 1 .3.8.8L13.2 20.3c-.2.5-.9.5-1.1 0l-2.3-5.8-5.3-1.9c-.5-.2-.5-.8 0-1z', 'M9.9 14.4L20 4.6'],
  image: [{ r: [3, 4.5, 18, 15, 2.5] }, { c: [8.5, 9.5, 1.7] }, 'M3.5 17.5l5-4.8 3.8 3.5 3-2.7 5.2 4.5'],
  smile: [{ c: [12, 12, 9] }, 'M8.3 14.2c.9 1.4 2.2 2.1 3.7 2.1s2.8-.7 3.7-2.1', { c: [9, 9.8, 1.1], fill: true }, { c: [15, 9.8, 1.1], fill: true }],
  close: ['M6.5 6.5l11 11M17.5 6.5l-11 11'],
  check: ['M5 12.5l4.5 4.5L19 7.5'],
  clock: [{ c: [12, 12, 8.5] }, 'M12 7.5V12l3 2'],
  alert: [{ c: [12, 12, 9] }, 'M12 7.3v6', { c: [12, 16.4, 1.1], fill: true }],
  heart: ['M12 20.3C6.6 16.5 3.6 13.3 3.6 9.6A4.5 4.5 0 0 1 12 7.2a4.5 4.5 0 0 1 8.4 2.4c0 3.7-3 6.9-8.4 10.7z'],
  undo: ['M8.5 6.5L4.5 10.5l4 4', 'M5 10.5h9a5 5 0 0 1 0 10h-2.5'],
  group: [{ c: [9, 8.5, 3.2] }, 'M2.8 19.5c.5-3.2 3-5.3 6.2-5.3s5.7 2.1 6.2 5.3', { c: [16.6, 9.2, 2.6] }, 'M16.8 13.9c2.4.1 4.1 1.9 4.5 4.6'],
  room: ['M5 9h14.5M4.5 15H19M10.3 4l-2 16M15.7 4l-2 16'],
  userPlus: [{ c: [10, 8, 3.5] }, 'M3.2 20c.6-3.5 3.4-5.8 6.8-5.8 1.2 0 2.3.3 3.3.8', 'M18 13.5v6M15 16.5h6'],
  edit: ['M4.5 19.5h4l10-10a2.1 2.1 0 0 0-4-4l-10 10z', 'M13.5 6.5l4 4'],
  bell: ['M6 16.5V11a6 6 0 0 1 12 0v5.5l1.5 1.5h-15z', 'M10 20.5a2.2 2.2 0 0 0 4 0'],
  bellOff: ['M6 16.5V11a6 6 0 0 1 9.6-4.8M18 11v5.5l1.5 1.5H8', 'M10 20.5a2.2 2.2 0 0 0 4 0', 'M4 4l16 16'],
  logout: ['M14 4.5h3.5a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H14', 'M9.5 8l-4 4 4 4', 'M5.8 12h10'],
  globe: [{ c: [12, 12, 9] }, 'M3 12h18', 'M12 3c2.4 2.5 3.7 5.5 3.7 9s-1.3 6.5-3.7 9c-2.4-2.5-3.7-5.5-3.7-9S9.6 5.5 12 3z'],
  eye: ['M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12z', { c: [12, 12, 3] }],
  eyeOff: ['M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12z', { c: [12, 12, 3] }, 'M4 4l16 16'],
  phone: [{ r: [6.5, 2.5, 11, 19, 2.5] }, 'M10.5 18.2h3'],
  lock: [{ r: [5, 10.5, 14, 10, 2.5] }, 'M8 10.5V8a4 4 0 0 1 8 0v2.5'],
  user: [{ c: [12, 8, 3.6] }, 'M4.8 20c.6-3.6 3.5-6 7.2-6s6.6 2.4 7.2 6'],
  enter: ['M10 4H6.5A1.5 1.5 0 0 0 5 5.5v13A1.5 1.5 0 0 0 6.5 20H10', 'M14 8l4 4-4 4', 'M18 12H9'],
  block: [{ c: [12, 12, 9] }, 'M5.7 5.7l12.6 12.6'],
  devices: [{ r: [3, 5, 13, 9.5, 1.5] }, 'M6.5 18h6', { r: [17.5, 9, 4, 10, 1.2] }],
  download: ['M12 4v11', 'M7.5 10.5L12 15l4.5-4.5', 'M5 19.5h14'],
  trash: ['M4.5 7h15M9.5 7V4.5h5V7M6.5 7l1 13h9l1-13'],
  offline: ['M3 8.8a13.5 13.5 0 0 1 18 0M6.2 12.3a8.7 8.7 0 0 1 11.6 0M9.3 15.7a4.3 4.3 0 0 1 5.4 0', { c: [12, 19, 1.2], fill: true }, 'M4 3.5l16 17'],
  spark: ['M12 3.5l1.9 5.2 5.6.3-4.4 3.5 1.5 5.4L12 14.8l-4.6 3.1 1.5-5.4L4.5 9l5.6-.3z'],
  search: [{ c: [10.5, 10.5, 6] }, 'M15 15l5 5'],
  mic: [{ r: [9, 3.5, 6, 11, 3] }, 'M5.5 11.5a6.5 6.5 0 0 0 13 0', 'M12 18v3M9 21h6'],
  play: [{ p: 'M8 5.5v13l10.5-6.5z', fill: true }],
  pause: [{ r: [7, 5.5, 3.5, 13, 1], fill: true }, { r: [13.5, 5.5, 3.5, 13, 1], fill: true }],
  file: ['M6.5 3h7.5l4.5 4.5v12a1.5 1.5 0 0 1-1.5 1.5h-10.5A1.5 1.5 0 0 1 5 19.5v-15A1.5 1.5 0 0 1 6.5 3z', 'M13.5 3v5h5', 'M8.5 13h7M8.5 16.5h5'],
  // A file tile's sign for sound or video (voice notes' button is `play`).
  media: [{ c: [12, 12, 9] }, 'M10 8.5v7l6-3.5z'],
  camera: ['M4 8.5A2 2 0 0 1 6 6.5h2l1.5-2h5l1.5 2h2a2 2 0 0 1 2 2V18a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2z', { c: [12, 13, 3.5] }],
};

/** An inline SVG icon; decorative (aria-hidden) unless a label is given. */
export function icon(name, { size = 24, label = null, cls = '' } = {}) {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', String(size));
  svg.setAttribute('height', String(size));
  svg.setAttribute('class', `icon icon-${name} ${cls}`.trim());
  svg.setAttribute('fill', 'none');
  svg.setAttribute('stroke', 'currentColor');
  svg.setAttribute('stroke-width', '1.8');
  svg.setAttribute('stroke-linecap', 'round');
  svg.setAttribute('stroke-linejoin', 'round');
  if (label) {
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', label);
  } else {
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('focusable', 'false');
  }
  for (const shape of ICONS[name] || []) {
    let el;
    if (typeof shape === 'string' || shape.p) {
      el = document.createElementNS(NS, 'path');
      el.setAttribute('d', shape.p || shape);
    } else if (shape.c) {
      el = document.createElementNS(NS, 'circle');
      el.setAttribute('cx', shape.c[0]);
      el.setAttribute('cy', shape.c[1]);
      el.setAttribute('r', shape.c[2]);
    } else if (shape.r) {
      el = document.createElementNS(NS, 'rect');
      const [x, y, w, hgt, rx] = shape.r;
      el.setAttribute('x', x); el.setAttribute('y', y);
      el.setAttribute('width', w); el.setAttribute('height', hgt);
      el.setAttribute('rx', rx);
    }
    if (shape.fill) {
      el.setAttribute('fill', 'currentColor');
      el.setAttribute('stroke', 'none');
    }
    svg.appendChild(el);
  }
  return svg;
}
