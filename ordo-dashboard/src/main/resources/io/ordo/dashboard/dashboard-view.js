// Ordo dashboard: what draws a page, with no state and no API calls: building elements (every
// value becomes text: textContent, text nodes, attribute values; nothing is parsed as HTML),
// formatting numbers, spans and times, and the throughput chart. dashboard.js draws the pages with it.
'use strict';

(function () {
  const WINDOW_MS = 15 * 60 * 1000;
  const SVG = 'http://www.w3.org/2000/svg';

  // ---- DOM helpers -------------------------------------------------------------------------

  /** An element with attributes and children; strings become text nodes. */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name === 'onclick') node.addEventListener('click', value);
      else if (name === 'text') node.textContent = String(value);
      else node.setAttribute(name, value === true ? '' : String(value));
    }
    append(node, children);
    return node;
  }

  function append(node, children) {
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
    }
    return node;
  }

  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, String(value));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function replace(node, ...children) {
    node.replaceChildren();
    return append(node, children);
  }

  // ---- formatting --------------------------------------------------------------------------

  const number = (n) => (n === null || n === undefined ? '–' : Number(n).toLocaleString('en-US'));

  function rate(n) {
    if (n === null || n === undefined) return '–';
    if (n === 0) return '0';
    return n >= 10 ? n.toFixed(0) : n >= 1 ? n.toFixed(1) : n.toFixed(2);
  }

  function span(ms) {
    ms = Math.max(0, Math.round(ms));
    if (ms < 1000) return ms + ' ms';
    const s = Math.floor(ms / 1000);
    if (s < 60) return s + ' s';
    const m = Math.floor(s / 60);
    if (m < 60) return m + ' min ' + (s % 60) + ' s';
    const h = Math.floor(m / 60);
    if (h < 48) return h + ' h ' + (m % 60) + ' min';
    return Math.floor(h / 24) + ' d ' + (h % 24) + ' h';
  }

  // sv-SE writes local time as 2026-11-29 21:53:08
  const clock = (ms) => new Date(ms).toLocaleString('sv-SE');

  /** A time, shown relative to the backend's "now", with the absolute time on hover. */
  function when(ms, now) {
    const text = ms <= now ? span(now - ms) + ' ago' : 'in ' + span(ms - now);
    return el('time', { datetime: new Date(ms).toISOString(), title: clock(ms) }, text);
  }

  function preview(part, cls, id) {
    return el('div', {},
      el('pre', { class: cls || 'preview', id }, part.text),
      part.truncated ? el('span', { class: 'cut' }, 'cut' + (part.bytes !== undefined ? ' (' + number(part.bytes) + ' bytes in all)' : '')) : null);
  }


  // ---- chart -------------------------------------------------------------------------------

  function niceMax(value) {
    if (value <= 1) return 1;
    const magnitude = Math.pow(10, Math.floor(Math.log10(value)));
    for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude;
    return 10 * magnitude;
  }

  /** The span the chart shows: the readings so far, rounded up, at most 15 minutes. */
  function chartWindow(rates) {
    const span = rates.length ? rates[rates.length - 1].at - rates[0].at : 0;
    for (const ms of [10000, 30000, 60000, 120000, 300000, 600000]) if (span <= ms) return ms;
    return WINDOW_MS;
  }

  const ago = (ms) => (ms === 0 ? 'now' : ms < 180000 ? '−' + Math.round(ms / 1000) + ' s' : '−' + Math.round(ms / 6000) / 10 + ' min');

  /** Tasks per second over the last minutes (at most 15): published (dashed), acked, dead-lettered. */
  function chart(rates, sampleEveryMillis, label) {
    const width = 720, height = 170, left = 44, right = 10, top = 10, bottom = 24;
    const windowMs = chartWindow(rates);
    const now = rates.length ? rates[rates.length - 1].at : Date.now();
    const start = now - windowMs;
    const series = ['published', 'acked', 'deadLettered'];
    const max = niceMax(Math.max(0, ...rates.flatMap((r) => series.map((s) => r[s]))));
    const x = (at) => left + (at - start) / windowMs * (width - left - right);
    const y = (v) => top + (1 - v / max) * (height - top - bottom);
    const last = rates.length ? rates[rates.length - 1] : null;
    const summary = last ? label + ': now ' + rate(last.acked) + ' acked/s, ' + rate(last.published) + ' published/s'
      : label + ': no readings yet';
    const root = svg('svg', { class: 'chart', viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-label': summary });
    root.appendChild(svg('title', {}, summary));
    for (const fraction of [0, 0.5, 1]) {
      const value = max * fraction;
      root.appendChild(svg('line', { class: 'grid', x1: left, x2: width - right, y1: y(value), y2: y(value) }));
      root.appendChild(svg('text', { class: 'axis', x: left - 6, y: y(value) + 4, 'text-anchor': 'end' }, rate(value)));
    }
    for (const fraction of [1, 0.5, 0]) {
      root.appendChild(svg('text', { class: 'axis', x: x(now - fraction * windowMs), y: height - 6,
        'text-anchor': fraction === 1 ? 'start' : fraction === 0 ? 'end' : 'middle' }, ago(Math.round(fraction * windowMs))));
    }
    for (const name of series) {
      const points = rates.filter((r) => r.at >= start).map((r) => x(r.at).toFixed(1) + ',' + y(r[name]).toFixed(1));
      if (points.length === 1) points.unshift((x(now) - 4).toFixed(1) + ',' + points[0].split(',')[1]);
      if (points.length) root.appendChild(svg('polyline', { class: 'series ' + name, points: points.join(' ') }));
    }
    const legend = el('div', { class: 'legend' },
      series.map((name) => el('span', {}, el('span', { class: 'swatch ' + name }),
        { published: 'published', acked: 'acked', deadLettered: 'dead-lettered' }[name] + '/s'
        + (last ? ' ' + rate(last[name]) : ''))),
      el('span', {}, 'read every ' + span(sampleEveryMillis) + ', since the dashboard started'));
    return el('figure', { class: 'panel', id: 'throughput' }, el('figcaption', {}, el('strong', {}, 'Throughput'),
      el('span', { class: 'muted small' }, ' · tasks per second, last ' + (windowMs < 60000 ? windowMs / 1000 + ' s' : windowMs / 60000 + ' min') + ' (up to 15 min)')), root, legend);
  }

  window.OrdoView = Object.freeze({ el, replace, number, rate, span, clock, when, preview, chart });
}());
