// Ordo dashboard: the Completed page, the tasks a queue keeps with their results (docs/task-control.md,
// "Results"), the latest to go first. A file of its own beside dashboard.js, which hands it the page's tools
// (kit); like the other pages it shows every value from the API as text.
'use strict';

(function () {
  const { el, replace, number, span, when } = window.OrdoView;

  /** A size in bytes, short. */
  function size(bytes) {
    if (bytes === 0) return 'none';
    if (bytes < 1024) return number(bytes) + ' B';
    return (bytes < 10240 ? (bytes / 1024).toFixed(1) : number(Math.round(bytes / 1024))) + ' KiB';
  }

  /** Draws the page into main: kit holds dashboard.js's tools for list pages. */
  async function draw(page, kit) {
    const { queue, group } = page;
    const offset = Math.min((page.page - 1) * kit.PAGE_SIZE, 1000);
    const body = await kit.reading(kit.apiPath(queue, group, '/completed', { offset, limit: kit.PAGE_SIZE }));
    if (!body) return;
    const now = body.readAt;
    const rows = body.tasks.map((t) => el('tr', { 'data-id': t.id }, kit.taskCells(queue, group, t),
      el('td', { 'data-field': 'completed' }, when(t.completedAt, now)),
      el('td', { 'data-field': 'kept-until' }, t.keptUntil > now ? when(t.keptUntil, now)
        : el('span', { title: 'its time is up: the next maintenance deletes it' }, 'due to go')),
      el('td', { class: 'num', 'data-field': 'result', title: number(t.resultBytes) + ' bytes: the task\u2019s page shows it' },
        size(t.resultBytes)),
      el('td', { class: 'num' }, String(t.attempts)),
      el('td', { 'data-field': 'payload' }, kit.line(t.payload, 'payload'))));
    const kept = body.resultsKept
      ? 'Kept ' + span(body.resultRetentionMillis) + ' after their ack, the latest to go first (newest completed first while the retention stays the same). Open a task for its result.'
      : 'This queue keeps no results (resultRetention is off): an ack deletes its task.'
        + (body.total ? ' Those listed completed while it kept them, and go when their time is up.' : '');
    const list = !body.resultsKept && !body.total
      ? el('p', { class: 'muted', id: 'completed-tasks' }, 'Results are not kept: set resultRetention (ordo settings --result-retention 1h) to keep completed tasks with their results.')
      : [kit.taskTable('completed-tasks', ['Id', 'Partition', 'Completed', 'Kept until', 'Result', 'Att', 'Payload'], rows,
        'No completed task is kept.'), kit.offsetPager(body, page.page, (n) => kit.completedHref(queue, group, n))];
    replace(document.getElementById('main'),
      el('h1', {}, 'Completed', el('span', { class: 'muted of' }, 'in ' + kit.viewName(queue, group)),
        el('span', { class: 'badge', id: 'completed-total' }, number(body.total)), kit.stamp(body)),
      kit.tabs(queue, group, 'completed'),
      el('section', { class: 'panel list' },
        el('p', { class: 'muted small', id: 'results-kept' }, kept),
        list));
    kit.wireTabs(queue, group);
  }

  window.OrdoCompleted = Object.freeze({ draw, size });
}());
