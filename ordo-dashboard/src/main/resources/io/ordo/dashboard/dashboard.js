// Ordo dashboard. Plain JavaScript, no build step: this file holds the state, the API calls, the
// session, routing, the pages and the keys; dashboard-view.js (loaded first) the element, formatting
// and chart functions it draws with; dashboard-completed.js (loaded next) the Completed page, drawn with
// the tools this file hands it. Every value from the API reaches the page as text.
'use strict';

(function () {
  const TOKEN_KEY = 'ordo-dashboard-token';
  // a dead-letter search's filter, as the page's address and the API take it (from, before: epoch ms)
  const FILTER_FIELDS = ['reason', 'partition', 'from', 'before'];
  const REFRESH_MS = 5000;
  const PAGE_SIZE = 25;

  // groupDraft: the name typed in the form that creates a group, kept across the page's refreshes
  const state = { page: null, actions: false, token: null, timer: null, lastQueue: null, navigated: true, groupDraft: '', partitionDraft: '', selected: new Set() };

  const { el, replace, number, rate, span, clock, when, preview, chart } = window.OrdoView;

  // The path the dashboard is mounted under ('' at the root), as the server wrote it into the page.
  const BASE = document.documentElement.dataset.base || '';
  const $ = (id) => document.getElementById(id);
  const enc = encodeURIComponent;
  // A queue named '.' or '..' would be a dot segment that the browser resolves away: such a name
  // is written '~.' or '~..' in paths ('~' is not allowed in queue names), as the server expects.
  const queueSegment = (q) => (q === '.' || q === '..' ? '~' + q : enc(q));
  const queueOf = (segment) => (segment.startsWith('~') ? segment.slice(1) : segment);

  /**
   * The API path of a queue's resource (rest: '', '/dead-letters', …) with its query parameters; with a
   * group, of that consumer group's view of the queue (the API's ?group=).
   */
  function apiPath(queue, group, rest, params) {
    const search = new URLSearchParams(params || {});
    if (group) search.set('group', group);
    const query = search.toString();
    return 'queues/' + queueSegment(queue) + (rest || '') + (query ? '?' + query : '');
  }

  /** What a page shows, in words: the queue, or one of its groups. */
  const viewName = (queue, group) => (group ? 'group ' + group + ' of queue ' + queue : 'queue ' + queue);
  const capitalized = (text) => text.charAt(0).toUpperCase() + text.slice(1);

  // ---- API ---------------------------------------------------------------------------------

  async function get(path) {
    // a dashboard started with --token-for-reads wants the token on reads too
    const headers = state.token ? { Accept: 'application/json', 'X-Ordo-Token': state.token } : { Accept: 'application/json' };
    const response = await fetch(BASE + '/api/' + path, { headers, cache: 'no-store' });
    const body = await response.json().catch(() => ({ error: 'unreadable answer (' + response.status + ')' }));
    return { status: response.status, body };
  }

  async function act(path, payload, success) {
    if (!state.token) {
      notify('Actions are locked: unlock them with the dashboard token first.', true);
      return null;
    }
    let response;
    try {
      response = await fetch(BASE + '/api/' + path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Ordo-Token': state.token },
        body: JSON.stringify(payload || {}),
      });
    } catch (e) {
      notify('The dashboard did not answer: ' + e.message, true);
      return null;
    }
    const body = await response.json().catch(() => ({}));
    if (response.status === 401 || response.status === 403) {
      if (/token/.test(body.error || '')) forgetToken();
      notify('Refused: ' + (body.error || response.status), true);
      return null;
    }
    if (!response.ok) {
      notify('Failed: ' + (body.error || response.status), true);
      return null;
    }
    await refresh(); // the notice appears with the page that shows the action's effect
    if (success) notify(success(body));
    return body;
  }

  // ---- notices, dialogs, session -----------------------------------------------------------

  function notify(message, error) {
    replace($('notice'), el('p', { class: error ? 'error' : null, role: error ? 'alert' : null }, message));
  }

  /** Asks before an action; with {@code typed}, the operator must type that text first. */
  function confirmAction(title, message, confirmLabel, typed) {
    const dialog = $('confirm-dialog');
    $('confirm-title').textContent = title;
    $('confirm-message').textContent = message;
    $('confirm-ok').textContent = confirmLabel;
    const row = $('confirm-typed-row');
    const input = $('confirm-typed');
    row.hidden = !typed;
    input.value = '';
    $('confirm-expected').textContent = typed || '';
    $('confirm-ok').disabled = !!typed;
    input.oninput = () => { $('confirm-ok').disabled = input.value !== typed; };
    dialog.returnValue = 'cancel';
    return new Promise((resolve) => {
      dialog.addEventListener('close', () => resolve(dialog.returnValue === 'confirm'), { once: true });
      dialog.showModal();
      (typed ? input : $('confirm-cancel')).focus();
    });
  }

  function forgetToken() {
    state.token = null;
    sessionStorage.removeItem(TOKEN_KEY);
    drawSession();
  }

  async function tryToken(token) {
    const response = await fetch(BASE + '/api/session', {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Ordo-Token': token }, body: '{}',
    });
    if (response.ok) {
      state.token = token;
      sessionStorage.setItem(TOKEN_KEY, token);
      return true;
    }
    const body = await response.json().catch(() => ({}));
    notify('Token refused: ' + (body.error || response.status), true);
    return false;
  }

  function unlock() {
    const dialog = $('unlock-dialog');
    $('unlock-token').value = '';
    dialog.returnValue = 'cancel';
    dialog.addEventListener('close', async () => {
      const token = $('unlock-token').value.trim();
      $('unlock-token').value = '';
      if (dialog.returnValue === 'unlock' && token && await tryToken(token)) {
        notify('Actions unlocked in this tab.');
        drawSession();
        await refresh();
      }
    }, { once: true });
    dialog.showModal();
    $('unlock-token').focus();
  }

  function drawSession() {
    const box = $('session');
    if (!state.actions) {
      replace(box, el('span', { class: 'badge', title: 'started with --read-only' }, 'read-only'));
    } else if (state.token) {
      replace(box, el('span', { class: 'badge good', id: 'actions-state' }, 'actions unlocked'),
        el('button', { type: 'button', id: 'lock', onclick: async () => { forgetToken(); await refresh(); } }, 'Lock'));
    } else {
      replace(box, el('span', { class: 'badge warn', id: 'actions-state' }, 'read-only'),
        el('button', { type: 'button', id: 'unlock', onclick: unlock }, 'Unlock actions'));
    }
  }

  /** A button for an action: disabled (with the reason on hover) while actions are locked. */
  function actionButton(label, handler, attrs) {
    const locked = !state.token;
    return el('button', Object.assign({
      type: 'button', onclick: handler, disabled: locked,
      title: locked ? 'Unlock actions with the dashboard token first' : null,
    }, attrs || {}), label);
  }

  // ---- routing -----------------------------------------------------------------------------

  function route() {
    const parts = location.pathname.slice(BASE.length).split('/').filter(Boolean).map(decodeURIComponent);
    const query = new URLSearchParams(location.search);
    // ?group=G: the page of one of the queue's consumer groups
    const group = query.get('group') || null;
    if (parts.length === 0) return { kind: 'overview' };
    if (parts[0] === 'queues' && parts.length === 2) return { kind: 'queue', queue: queueOf(parts[1]), group };
    if (parts[0] === 'queues' && parts[2] === 'dead-letters') {
      // with a filter (reason text, partition, time of death) the page searches, cursor by cursor
      const filter = {};
      for (const name of FILTER_FIELDS) if (query.get(name)) filter[name] = query.get(name);
      return { kind: 'dead', queue: queueOf(parts[1]), group, page: Math.max(1, parseInt(query.get('page') || '1', 10) || 1),
        filter, cursor: query.get('cursor') || '' };
    }
    if (parts[0] === 'queues' && parts[2] === 'task') return { kind: 'task', queue: queueOf(parts[1]), group, id: query.get('id') || '' };
    const pageNumber = Math.max(1, parseInt(query.get('page') || '1', 10) || 1);
    if (parts[0] === 'queues' && parts[2] === 'partition') {
      return { kind: 'partition', queue: queueOf(parts[1]), group, partition: query.get('partition') || '', page: pageNumber };
    }
    if (parts[0] === 'queues' && parts[2] === 'delayed') return { kind: 'delayed', queue: queueOf(parts[1]), group, page: pageNumber };
    if (parts[0] === 'queues' && parts[2] === 'in-flight') return { kind: 'in-flight', queue: queueOf(parts[1]), group, cursor: query.get('cursor') || '' };
    if (parts[0] === 'queues' && parts[2] === 'completed') return { kind: 'completed', queue: queueOf(parts[1]), group, page: pageNumber };
    return { kind: 'missing' };
  }

  const pagePath = (q) => BASE + '/queues/' + queueSegment(q);
  const withGroup = (group, first) => (group ? (first ? '?' : '&') + 'group=' + enc(group) : '');
  const queueHref = (q, group) => pagePath(q) + withGroup(group, true);
  const deadHref = (q, page, group) => pagePath(q) + '/dead-letters' + withGroup(group, true)
    + (page && page > 1 ? (group ? '&' : '?') + 'page=' + page : '');
  const taskHref = (q, id, group) => pagePath(q) + '/task?id=' + enc(id) + withGroup(group, false);
  /** A page below the queue's with its query parameters (those empty left out) and the group. */
  const listHref = (q, rest, params, group) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(params || {})) if (value !== '' && value !== null && value !== undefined) search.set(name, value);
    if (group) search.set('group', group);
    const query = search.toString();
    return pagePath(q) + rest + (query ? '?' + query : '');
  };
  const partitionHref = (q, code, group, page) => listHref(q, '/partition', { partition: code, page: page > 1 ? page : '' }, group);
  const delayedHref = (q, group, page) => listHref(q, '/delayed', { page: page > 1 ? page : '' }, group);
  const inFlightHref = (q, group, cursor) => listHref(q, '/in-flight', { cursor }, group);
  const completedHref = (q, group, page) => listHref(q, '/completed', { page: page > 1 ? page : '' }, group);
  const searchHref = (q, group, filter, cursor) => listHref(q, '/dead-letters', Object.assign({}, filter, { cursor }), group);

  function crumbs(page) {
    const parts = [el('a', { href: BASE + '/' }, 'Queues')];
    if (page.queue) {
      parts.push(el('span', { class: 'sep' }, '›'), el('a', { href: queueHref(page.queue) }, page.queue));
      if (page.group) parts.push(el('span', { class: 'sep' }, '›'), el('a', { href: queueHref(page.queue, page.group), id: 'crumb-group' }, 'group ' + page.group));
      if (page.kind === 'dead') parts.push(el('span', { class: 'sep' }, '›'), el('span', {}, 'Dead letters'));
      if (page.kind === 'delayed') parts.push(el('span', { class: 'sep' }, '›'), el('span', {}, 'Delayed'));
      if (page.kind === 'in-flight') parts.push(el('span', { class: 'sep' }, '›'), el('span', {}, 'In flight'));
      if (page.kind === 'completed') parts.push(el('span', { class: 'sep' }, '›'), el('span', {}, 'Completed'));
      if (page.kind === 'partition') parts.push(el('span', { class: 'sep' }, '›'), el('span', {}, 'Partition ' + page.partition));
      if (page.kind === 'task') parts.push(el('span', { class: 'sep' }, '›'), el('span', {}, 'Task'));
    }
    replace($('crumbs'), parts);
    if (page.queue) $('find-queue').value = page.queue;
  }

  /** A selector that finds the focused control again after the page is drawn afresh. */
  function focusKey(node) {
    if (!node || !$('main').contains(node) || node === $('main')) return null;
    if (node.id) return '#' + CSS.escape(node.id);
    const label = node.getAttribute('aria-label');
    if (label) return node.tagName.toLowerCase() + '[aria-label="' + CSS.escape(label) + '"]';
    const href = node.getAttribute('href');
    if (href) return 'a[href="' + CSS.escape(href) + '"]';
    return null;
  }

  async function refresh() {
    clearTimeout(state.timer);
    const page = state.page;
    const focused = focusKey(document.activeElement);
    try {
      if (page.kind === 'overview') await drawOverview();
      else if (page.kind === 'queue') await drawQueue(page.queue, page.group);
      else if (page.kind === 'dead') await drawDeadLetters(page);
      else if (page.kind === 'partition') await drawPartition(page);
      else if (page.kind === 'delayed') await drawDelayed(page);
      else if (page.kind === 'in-flight') await drawInFlight(page);
      else if (page.kind === 'completed') await window.OrdoCompleted.draw(page, { PAGE_SIZE, reading, apiPath, taskCells, line,
        taskTable, offsetPager, completedHref, viewName, stamp, tabs, wireTabs });
      else if (page.kind === 'task') await drawTask(page.queue, page.id, page.group);
      else replace($('main'), el('h1', {}, 'Not found'), el('p', {}, el('a', { href: BASE + '/' }, 'Back to the queues')));
    } catch (e) {
      replace($('main'), el('h1', {}, 'The dashboard did not answer'), el('p', { class: 'muted' }, String(e.message || e)));
    }
    const again = focused && document.querySelector(focused);
    if (again) {
      again.focus({ preventScroll: true });
      // a field being typed in: the caret back at the end of what was typed
      if (again.tagName === 'INPUT') again.setSelectionRange(again.value.length, again.value.length);
    }
    if (state.navigated) {
      state.navigated = false;
      const heading = document.querySelector('main h1');
      if (heading && document.activeElement === document.body) $('main').focus({ preventScroll: true });
    }
    if (page.kind === 'overview' || page.kind === 'queue') {
      state.timer = setTimeout(() => { if (!document.hidden) refresh(); else state.timer = setTimeout(refresh, REFRESH_MS); }, REFRESH_MS);
    }
  }

  function stamp(body) {
    return el('span', { class: 'muted small', id: 'updated' },
      'on ' + body.backend + ' · updated ' + new Date().toLocaleTimeString('en-GB', { hour12: false }));
  }

  function problem(body) {
    const page = state.page;
    replace($('main'), el('h1', {}, 'Cannot show this page'), el('p', { class: 'error', role: 'alert', id: 'problem' }, body.error || 'failed'),
      el('p', {}, page && page.group ? [el('a', { href: queueHref(page.queue) }, 'Back to queue ' + page.queue), ' · '] : null,
        el('a', { href: BASE + '/' }, 'Back to the queues')));
  }

  // ---- pages -------------------------------------------------------------------------------

  async function drawOverview() {
    const { status, body } = await get('overview');
    if (status !== 200) return problem(body);
    state.actions = body.actions;
    drawSession();
    if (!$('find-queue').value && body.queues.length) $('find-queue').value = body.queues[0].name;
    const rows = body.queues.map((q) => {
      const s = q.stats;
      if (!s) {
        return el('tr', { 'data-queue': q.name }, el('td', {}, el('a', { href: queueHref(q.name) }, q.name)),
          el('td', { colspan: 8, class: 'error' }, q.error));
      }
      const cell = (field, value, cls) => el('td', { class: 'num ' + (cls || ''), 'data-field': field }, value);
      return el('tr', { 'data-queue': q.name },
        el('td', {}, el('a', { href: queueHref(q.name) }, q.name)),
        cell('ready', number(s.ready)), cell('delayed', number(s.delayed)), cell('inFlight', number(s.inFlight)),
        el('td', { class: 'num', 'data-field': 'dead' }, s.dead > 0 ? el('a', { href: deadHref(q.name) }, number(s.dead)) : '0'),
        cell('lag', span(s.oldestDueAgeMillis)),
        cell('ackedPerSecond', rate(q.ackedPerSecond)),
        cell('consumers', number(s.liveConsumers)),
        el('td', { 'data-field': 'paused' }, s.paused ? el('span', { class: 'badge warn' }, 'paused') : el('span', { class: 'badge good' }, 'running')));
    });
    const table = body.queues.length
      ? el('table', { id: 'queues' },
        el('caption', { class: 'muted small' }, 'Lag: how long the oldest due task has waited. Acked/s: over the last reading.'),
        el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Queue'), ['Ready', 'Delayed', 'In flight', 'Dead', 'Lag', 'Acked/s', 'Consumers']
          .map((h) => el('th', { scope: 'col', class: 'num' }, h)), el('th', { scope: 'col' }, 'State'))),
        el('tbody', {}, rows))
      : el('p', { class: 'muted' }, 'No queues hold any data on this backend yet.');
    replace($('main'),
      el('h1', {}, 'Queues', stamp(body)),
      body.discoveryProblem ? el('p', { class: 'error', role: 'alert' }, body.discoveryProblem) : null,
      chart(body.throughput, body.sampleEveryMillis, 'All queues'),
      el('section', { class: 'panel' }, table,
        body.totalQueues > body.queues.length ? el('p', { class: 'muted small' },
          'showing the first ' + body.queues.length + ' of ' + number(body.totalQueues) + ' queues by name; open another with its address /queues/NAME') : null));
  }

  function card(label, value, field, alert) {
    return el('div', { class: 'card' + (alert ? ' alert' : ''), 'data-field': field },
      el('div', { class: 'label' }, label), el('div', { class: 'value' }, value));
  }

  function table(id, headings, rows, empty) {
    if (!rows.length) return el('p', { class: 'muted', id }, empty);
    return el('table', { id }, el('thead', {}, el('tr', {}, headings.map((h) =>
      el('th', { scope: 'col', class: /^(Waiting|Due|In flight)$/.test(h) ? 'num' : null }, h)))), el('tbody', {}, rows));
  }

  function shown(list, total) {
    return total > list.length ? el('p', { class: 'muted small' }, 'showing ' + list.length + ' of ' + number(total)) : null;
  }

  async function drawQueue(queue, group) {
    const { status, body } = await get(apiPath(queue, group));
    if (status !== 200) return problem(body);
    state.actions = body.actions;
    drawSession();
    const s = body.stats;
    const name = viewName(queue, group);
    const pause = s.paused
      ? actionButton('Resume', () => act(apiPath(queue, group, '/resume'), {}, () => capitalized(name) + ' resumed.'), { id: 'resume' })
      : actionButton('Pause', async () => {
        if (await confirmAction('Pause ' + name + '?', (group ? 'Workers of this group get nothing' : 'Workers get nothing from this queue')
          + ' until it is resumed; publishing goes on.', 'Pause')) {
          await act(apiPath(queue, group, '/pause'), {}, () => capitalized(name) + ' paused.');
        }
      }, { id: 'pause' });
    const sections = [];
    const i = body.inspection;
    if (i) {
      const now = i.inspectedAt;
      sections.push(el('div', { class: 'two' },
        el('section', { class: 'panel' }, el('h2', {}, 'Busiest partitions'),
          table('partitions', ['Partition', 'Kind', 'Waiting', 'Due'], i.busiestPartitions.map((p) => el('tr', { 'data-partition': p.partition },
            el('td', {}, partitionLink(queue, group, p.partition)), el('td', {}, p.ordered ? 'ordered' : 'regular'),
            el('td', { class: 'num' }, number(p.waiting)), el('td', { class: 'num' }, number(p.due)))), 'No partition has waiting tasks.'),
          shown(i.busiestPartitions, i.totalPartitions)),
        el('section', { class: 'panel' }, el('h2', {}, 'Consumers'),
          table('consumers', ['Consumer', 'State', 'Last heartbeat', 'In flight'], i.consumers.map((c) => el('tr', { 'data-consumer': c.consumer },
            el('td', {}, c.consumer),
            el('td', {}, c.alive ? el('span', { class: 'badge good' }, 'alive') : el('span', { class: 'badge bad' }, 'dead')),
            el('td', {}, when(c.lastHeartbeat, now)), el('td', { class: 'num' }, number(c.inFlight)))), 'No consumer is registered.'),
          shown(i.consumers, i.totalConsumers))));
      sections.push(el('div', { class: 'two' },
        el('section', { class: 'panel' }, el('h2', {}, 'Locked ordered partitions'),
          table('locks', ['Partition', 'Held by', 'Since', 'In flight'], i.locks.map((l) => el('tr', { 'data-partition': l.partition },
            el('td', {}, partitionLink(queue, group, l.partition)), el('td', {}, l.holder), el('td', {}, when(l.since, now)),
            el('td', { class: 'num' }, number(l.inFlight)))), 'No ordered partition is held.'),
          shown(i.locks, i.totalLocks)),
        el('section', { class: 'panel' }, el('h2', {}, 'Blocked partitions'),
          table('blocks', ['Partition', 'Until', ''], i.blocks.map((b) => el('tr', { 'data-partition': b.partition },
            el('td', {}, partitionLink(queue, group, b.partition)), el('td', {}, when(b.until, now)),
            el('td', {}, actionButton('Unblock', () => act(apiPath(queue, group, '/partitions/unblock'), { partition: b.partition },
              () => 'Partition ' + b.partition + ' unblocked.'), { 'aria-label': 'Unblock ' + b.partition })))), 'No partition is blocked.'),
          shown(i.blocks, i.totalBlocks))));
    } else {
      sections.push(el('p', { class: 'error', role: 'alert' }, 'Partitions and consumers unavailable: ' + body.inspectionProblem));
    }
    // the queue's schedules: a read of their own, so a page whose schedules cannot be read still shows the rest
    const scheduled = await get(apiPath(queue, null, '/schedules'));
    if (scheduled.status === 200) {
      sections.push(el('section', { class: 'panel' }, el('h2', {}, 'Schedules',
        group ? el('span', { class: 'muted small' }, ' · the queue\u2019s: a firing publishes to every group') : null),
        table('schedules', ['Schedule', 'When', 'Partition', 'Misfire', 'Last slot'], scheduled.body.schedules.map((c) =>
          el('tr', { 'data-schedule': c.id },
            el('td', {}, c.id),
            el('td', {}, c.cron !== undefined ? 'cron ' + c.cron + ' (' + c.zone + ')' : 'every ' + span(c.everyMillis)),
            el('td', {}, c.partition), el('td', {}, c.misfire),
            el('td', {}, c.lastSlot !== undefined ? clock(c.lastSlot) : 'none yet'))), 'No schedule.')));
    } else {
      sections.push(el('p', { class: 'error', role: 'alert' }, 'Schedules unavailable: ' + scheduled.body.error));
    }
    // the caps and rate limits, and the dead letters' caps: a read of their own too (the view's settings: a group has its own)
    const limits = await get(apiPath(queue, group, '/limits'));
    if (limits.status === 200) {
      const l = limits.body;
      const row = (key, label, value, partition) => el('tr', { 'data-limit': key, 'data-partition': partition },
        el('th', { scope: 'row' }, label), el('td', {}, value));
      sections.push(el('section', { class: 'panel' }, el('h2', {}, 'Caps and rate limits'),
        el('table', { id: 'limits' }, el('tbody', {},
          row('partitionConcurrency', 'Partition cap', cap(l.partitionConcurrency)),
          l.partitionConcurrencyOverrides.map((o) => row('override', 'Cap of ' + o.partition, cap(o.cap), o.partition)),
          row('queueConcurrency', 'Queue cap', cap(l.queueConcurrency)),
          row('partitionRateLimit', 'Partition rate limit', rateLimit(l.partitionRateLimit)),
          row('queueRateLimit', 'Queue rate limit', rateLimit(l.queueRateLimit)),
          row('deadLetterMaxCount', 'Dead letters kept', l.deadLetterMaxCount === 0 ? 'no cap' : 'the newest ' + number(l.deadLetterMaxCount)),
          row('deadLetterMaxAge', 'Dead letters\u2019 age', l.deadLetterMaxAgeMillis === 0 ? 'no cap' : 'up to ' + span(l.deadLetterMaxAgeMillis))))));
    } else {
      sections.push(el('p', { class: 'error', role: 'alert' }, 'Caps and rate limits unavailable: ' + limits.body.error));
    }
    // the queue's consumer groups, each with its main figures: a read of their own as well
    // (near the top once the queue has some: publishing delivers to them then; after the rest while it has none)
    const groups = await get(apiPath(queue, null, '/groups'));
    const grouped = groups.status === 200 && groups.body.groups.length > 0;
    const groupsSection = groups.status === 200 ? groupsPanel(queue, group, groups.body)
      : el('p', { class: 'error', role: 'alert' }, 'Consumer groups unavailable: ' + groups.body.error);
    replace($('main'),
      el('h1', {}, group ? ['Group ' + group, el('span', { class: 'muted of' }, 'of queue ' + queue)] : 'Queue ' + queue,
        s.paused ? el('span', { class: 'badge warn', id: 'paused' }, 'paused') : null, stamp(body)),
      el('div', { class: 'actions' }, pause,
        el('a', { href: deadHref(queue, 1, group), id: 'dead-link' }, 'Dead letters (' + number(s.dead) + ')'),
        group ? el('a', { href: queueHref(queue), id: 'queue-link' }, 'The queue\u2019s own view') : null),
      tabs(queue, group, 'queue'),
      el('div', { class: 'cards' },
        card('Ready', number(s.ready), 'ready'), card('Delayed', number(s.delayed), 'delayed'),
        card('In flight', number(s.inFlight), 'inFlight'), card('Dead', number(s.dead), 'dead', s.dead > 0),
        card('Lag', span(s.oldestDueAgeMillis), 'lag'), card('Live consumers', number(s.liveConsumers), 'liveConsumers'),
        card('Active partitions', number(s.activePartitions), 'activePartitions'),
        card('Locked', number(s.lockedPartitions), 'lockedPartitions'), card('Blocked', number(s.blockedPartitions), 'blockedPartitions'),
        card(group ? 'Received' : 'Published', number(s.publishedTotal), 'publishedTotal'), card('Acked', number(s.ackedTotal), 'ackedTotal'),
        card('Dead-lettered', number(s.deadLetteredTotal), 'deadLetteredTotal'),
        card('Dropped by caps', number(s.deadLettersDroppedTotal), 'deadLettersDroppedTotal')),
      body.throughput ? chart(body.throughput, body.sampleEveryMillis, 'Queue ' + queue) : null,
      grouped ? groupsSection : null, sections, grouped ? null : groupsSection);
    wireTabs(queue, group);
  }

  /**
   * The queue's consumer groups (docs/groups.md): each one's main figures and a link to its page, a form
   * that creates one and a button that deletes one; {@code current} is the group this page shows, if any.
   */
  function groupsPanel(queue, current, body) {
    const rows = body.groups.map((g) => {
      const s = g.stats;
      const link = el('a', { href: queueHref(queue, g.name), 'aria-current': g.name === current ? 'page' : null }, g.name);
      const remove = actionButton('Delete', async () => {
        if (await confirmAction('Delete group ' + g.name + ' of queue ' + queue + '?',
          'Every task state, lease, consumer, dead letter, counter and setting of the group is deleted for good; '
          + 'its consumers\u2019 calls fail from then on. Other groups keep theirs.', 'Delete group', g.name)) {
          const r = await act(apiPath(queue, null, '/groups/delete'), { group: g.name },
            (r) => (r.deleted ? 'Group ' + g.name + ' deleted.' : 'Queue ' + queue + ' has no group ' + g.name + ': nothing deleted.'));
          if (r && g.name === current) location.assign(queueHref(queue));
        }
      }, { class: 'danger delete', 'aria-label': 'Delete group ' + g.name });
      if (!s) {
        return el('tr', { 'data-group': g.name }, el('td', {}, link), el('td', { colspan: 6, class: 'error' }, g.error), el('td', {}, remove));
      }
      const cell = (field, value) => el('td', { class: 'num', 'data-field': field }, value);
      return el('tr', { 'data-group': g.name },
        el('td', {}, link),
        cell('ready', number(s.ready)), cell('delayed', number(s.delayed)), cell('inFlight', number(s.inFlight)),
        el('td', { class: 'num', 'data-field': 'dead' }, s.dead > 0 ? el('a', { href: deadHref(queue, 1, g.name) }, number(s.dead)) : '0'),
        cell('consumers', number(s.liveConsumers)),
        el('td', { 'data-field': 'paused' }, s.paused ? el('span', { class: 'badge warn' }, 'paused') : el('span', { class: 'badge good' }, 'running')),
        el('td', {}, remove));
    });
    const list = rows.length
      ? el('table', { id: 'groups' },
        el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Group'), ['Ready', 'Delayed', 'In flight', 'Dead', 'Consumers']
          .map((h) => el('th', { scope: 'col', class: 'num' }, h)), el('th', { scope: 'col' }, 'State'), el('th', { scope: 'col' }, ''))),
        el('tbody', {}, rows))
      : el('p', { class: 'muted', id: 'groups' }, 'No consumer groups: publishing delivers to the queue\u2019s own view.');
    const input = el('input', { id: 'group-name', name: 'group', size: 18, autocomplete: 'off', spellcheck: 'false',
      'aria-describedby': 'group-name-rule', value: state.groupDraft });
    input.addEventListener('input', () => { state.groupDraft = input.value; });
    const form = el('form', { class: 'actions', id: 'create-group', 'aria-label': 'Create a consumer group' },
      el('label', { for: 'group-name' }, 'New group'), input,
      actionButton('Create group', null, { type: 'submit', id: 'create-group-button' }),
      el('span', { class: 'muted small', id: 'group-name-rule' }, '1..64 letters, digits, \u2018.\u2019, \u2018_\u2019, \u2018-\u2019; it receives the tasks published from then on'));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const name = input.value.trim();
      // the first group changes where publishes go: asked first (a name the API would refuse is not, it says why)
      if (!rows.length && /^[A-Za-z0-9._-]{1,64}$/.test(name) && !await confirmAction('Create group ' + name + ' of queue ' + queue + '?',
        'Once a queue has a group, publishing delivers to its groups only: the queue\u2019s own view keeps what it holds '
        + 'for its consumers to finish and receives nothing new.', 'Create group')) return;
      const r = await act(apiPath(queue, null, '/groups/create'), { group: name }, (r) => (r.created
        ? 'Group ' + r.group + ' created: it receives the tasks published from now on.'
        : 'Queue ' + queue + ' has a group ' + r.group + ' already: nothing changed.'));
      if (r) {
        state.groupDraft = '';
        if ($('group-name')) $('group-name').value = '';
      }
    });
    return el('section', { class: 'panel', id: 'groups-panel' },
      el('h2', {}, 'Consumer groups', el('span', { class: 'muted small' }, ' · each receives every task published after it was created')),
      rows.length && !current ? el('p', { class: 'muted small' },
        'Publishing delivers to the groups only; this page shows the queue\u2019s own view, which keeps what it held before the first group.') : null,
      list, form);
  }

  /** A concurrency cap: tasks in flight at most, 0 for none. */
  const cap = (n) => (n === 0 ? 'none' : number(n) + ' in flight');

  /** A rate limit as the API gives it, absent when off. */
  const rateLimit = (r) => (r === undefined ? 'off' : number(r.permits) + ' per ' + span(r.perMillis) + ', burst ' + number(r.burst));

  // ---- task lists ---------------------------------------------------------------------------

  /** The tabs of a queue's (or group's) pages: its figures, then its tasks by where they are. */
  function tabs(queue, group, current) {
    const tab = (kind, label, href) => el('a', { href, class: 'tab', id: 'tab-' + kind, 'aria-current': kind === current ? 'page' : null }, label);
    return el('nav', { class: 'tabs', 'aria-label': 'Pages of ' + viewName(queue, group) },
      tab('queue', 'Overview', queueHref(queue, group)), tab('delayed', 'Delayed', delayedHref(queue, group)),
      tab('in-flight', 'In flight', inFlightHref(queue, group)), tab('completed', 'Completed', completedHref(queue, group)),
      tab('dead', 'Dead letters', deadHref(queue, 1, group)),
      el('form', { class: 'open-partition', id: 'open-partition', 'aria-label': 'Open a partition' },
        el('label', { for: 'partition-code' }, 'Partition'),
        el('input', { id: 'partition-code', name: 'partition', size: 14, autocomplete: 'off', spellcheck: 'false',
          required: true, value: current === 'partition' ? state.page.partition : state.partitionDraft || null }),
        el('button', { type: 'submit' }, 'Open')));
  }

  /** Wires the partition form of tabs() once the page is drawn. */
  function wireTabs(queue, group) {
    const form = $('open-partition');
    // what is typed survives the queue page's refresh, as the group form's does
    if (form) $('partition-code').addEventListener('input', () => { state.partitionDraft = $('partition-code').value; });
    if (form) form.addEventListener('submit', (event) => {
      event.preventDefault();
      const code = $('partition-code').value.trim();
      if (code) location.assign(partitionHref(queue, code, group));
    });
  }

  const partitionLink = (queue, group, code) => el('a', { href: partitionHref(queue, code, group), class: 'partition-link' }, code);

  /** A compact table of tasks: one line a task, so a page of 25 fits a laptop's screen. */
  function taskTable(id, headings, rows, empty) {
    if (!rows.length) return el('p', { class: 'muted', id }, empty);
    return el('table', { id, class: 'compact' }, el('thead', {}, el('tr', {}, headings.map((h) =>
      el('th', { scope: 'col', class: /^(Pri|Att|Progress)$/.test(h) ? 'num' : null }, h)))), el('tbody', {}, rows));
  }

  /** A one-line preview with the whole text (as cut by the API) on hover. */
  const line = (part, cls) => el('span', { class: 'line ' + (cls || ''), title: part.text + (part.truncated ? ' …' : '') }, part.text);

  /** Cancels a waiting task (deleted) or one in flight (its worker is asked to stop), after asking. */
  function cancelButton(queue, group, task, inFlight) {
    return actionButton('Cancel', async () => {
      if (await confirmAction('Cancel task ' + task.id + '?', inFlight
        ? 'Its worker is asked to stop: it learns it with its next heartbeat, and the task ends as cancelled, neither retried nor dead-lettered.'
        : 'The task is deleted; it will not run.', 'Cancel task')) {
        await act(apiPath(queue, group, '/task/cancel'), { id: task.id }, (r) => task.id + ': ' + r.outcome + '.');
      }
    }, { class: 'danger cancel small-button', 'aria-label': 'Cancel ' + task.id });
  }

  /** Previous and next for an offset-paged list of PAGE_SIZE (its first maxOffset + PAGE_SIZE can be listed). */
  function offsetPager(body, page, href) {
    const reachable = Math.min(body.total, body.maxOffset + PAGE_SIZE);
    const pages = Math.max(1, Math.ceil(reachable / PAGE_SIZE));
    const from = (page - 1) * PAGE_SIZE;
    return el('nav', { class: 'pager', 'aria-label': 'Pages' },
      page > 1 ? el('a', { href: href(page - 1), rel: 'prev', id: 'prev-page' }, '← Previous') : null,
      el('span', { class: 'muted', id: 'page-position' }, 'page ' + page + ' of ' + pages + (body.tasks.length
        ? ' · ' + (from + 1) + '–' + (from + body.tasks.length) + ' of ' + number(body.total) : '')
        + (body.total > reachable ? ' (the first ' + number(reachable) + ' can be listed)' : '')),
      page < pages ? el('a', { href: href(page + 1), rel: 'next', id: 'next-page' }, 'Next →') : null);
  }

  const ready = (t, now) => (t.readyAt > now ? when(t.readyAt, now) : 'ready');

  /** A list page's reading: its body once the session is drawn, or null once the page said why there is none. */
  async function reading(path) {
    const { status, body } = await get(path);
    if (status !== 200) {
      problem(body);
      return null;
    }
    state.actions = body.actions;
    drawSession();
    return body;
  }

  /** The cells every list starts a task's row with: its id (to its page) and its partition (to the partition's). */
  const taskCells = (queue, group, t) => [el('td', {}, el('a', { href: taskHref(queue, t.id, group) }, t.id)),
    el('td', {}, partitionLink(queue, group, t.partition))];

  async function drawPartition(page) {
    const { queue, group, partition } = page;
    if (!partition) return problem({ error: 'no partition given' });
    const offset = Math.min((page.page - 1) * PAGE_SIZE, 1000);
    const body = await reading(apiPath(queue, group, '/partition', { partition, offset, limit: PAGE_SIZE }));
    if (!body) return;
    const now = body.readAt;
    const head = body.head;
    const headState = !head ? 'nothing waiting'
      : head.readyAt > now ? (body.ordered ? 'not ready: holds the partition back until ' : 'ready ') + clock(head.readyAt) : 'ready';
    const fields = [
      ['Kind', body.ordered ? 'ordered: one batch at a time, in order' : 'regular'],
      ['Waiting', number(body.waiting) + (body.ordered ? '' : ' (' + number(body.total) + ' ready, the rest delayed)')],
      ['In flight', body.inFlight === undefined ? 'not counted (no concurrency cap)' : number(body.inFlight)],
      ['Head', head ? [el('a', { href: taskHref(queue, head.id, group), id: 'partition-head' }, head.id), ' · ' + headState] : 'none'],
      ['Lock', body.lock ? [el('span', { id: 'partition-lock' }, 'held by ' + body.lock.holder), ' since ', when(body.lock.since, now),
        ' · ' + number(body.lock.inFlight) + ' in flight'] : (body.ordered ? 'not held' : 'regular: no lock')],
      ['Block', body.block ? [el('span', { id: 'partition-block' }, 'blocked until ' + clock(body.block.until) + ' ('), when(body.block.until, now), ') ',
        actionButton('Unblock', () => act(apiPath(queue, group, '/partitions/unblock'), { partition },
          () => 'Partition ' + partition + ' unblocked.'), { id: 'unblock-partition', class: 'small-button' })] : 'not blocked'],
    ];
    const rows = body.tasks.map((t, i) => el('tr', { 'data-id': t.id },
      el('td', { class: 'num' }, String(body.offset + i + 1)),
      el('td', {}, el('a', { href: taskHref(queue, t.id, group) }, t.id)),
      el('td', { class: 'num' }, String(t.priority)), el('td', { class: 'num' }, String(t.attempts)),
      el('td', {}, when(t.publishedAt, now)), el('td', { 'data-field': 'ready' }, ready(t, now)),
      el('td', { 'data-field': 'payload' }, line(t.payload, 'payload')),
      el('td', {}, cancelButton(queue, group, t, false))));
    replace($('main'),
      el('h1', {}, 'Partition ' + partition, el('span', { class: 'muted of' }, 'of ' + viewName(queue, group)), stamp(body)),
      tabs(queue, group, 'partition'),
      el('section', { class: 'panel list' },
        el('dl', { class: 'fields summary', id: 'partition-fields' },
          fields.map(([name, value]) => [el('dt', {}, name), el('dd', {}, value)])),
        el('h2', {}, 'Waiting, in the order it delivers them', el('span', { class: 'muted small' },
          body.ordered ? ' · every waiting task, by priority, due time and publish order' : ' · its ready tasks; those not ready yet are under Delayed')),
        taskTable('partition-tasks', ['#', 'Id', 'Pri', 'Att', 'Published', 'Ready', 'Payload', ''], rows, 'No task waits in this partition.'),
        offsetPager(body, page.page, (n) => partitionHref(queue, partition, group, n))));
    wireTabs(queue, group);
  }

  async function drawDelayed(page) {
    const { queue, group } = page;
    const offset = Math.min((page.page - 1) * PAGE_SIZE, 1000);
    const body = await reading(apiPath(queue, group, '/delayed', { offset, limit: PAGE_SIZE }));
    if (!body) return;
    const now = body.readAt;
    const rows = body.tasks.map((t) => el('tr', { 'data-id': t.id }, taskCells(queue, group, t),
      el('td', { 'data-field': 'due' }, t.readyAt > now ? when(t.readyAt, now) : el('span', { title: 'its time came: it joins its partition at the next fetch' }, 'due ', when(t.readyAt, now))),
      el('td', { class: 'num' }, String(t.priority)), el('td', { class: 'num' }, String(t.attempts)),
      el('td', { class: 'reason' }, t.lastError ? line(t.lastError) : el('span', { class: 'muted' }, 'first run')),
      el('td', { 'data-field': 'payload' }, line(t.payload, 'payload')),
      el('td', {}, cancelButton(queue, group, t, false))));
    replace($('main'),
      el('h1', {}, 'Delayed', el('span', { class: 'muted of' }, 'in ' + viewName(queue, group)),
        el('span', { class: 'badge', id: 'delayed-total' }, number(body.total)), stamp(body)),
      tabs(queue, group, 'delayed'),
      el('section', { class: 'panel list' },
        el('p', { class: 'muted small' }, 'Delayed publishes and retries waiting for their backoff, soonest due first.'),
        taskTable('delayed-tasks', ['Id', 'Partition', 'Due', 'Pri', 'Att', 'Last error', 'Payload', ''], rows, 'No task waits for its time.'),
        offsetPager(body, page.page, (n) => delayedHref(queue, group, n))));
    wireTabs(queue, group);
  }

  async function drawInFlight(page) {
    const { queue, group } = page;
    const body = await reading(apiPath(queue, group, '/in-flight', { cursor: page.cursor, limit: PAGE_SIZE }));
    if (!body) return;
    const now = body.readAt;
    const rows = body.tasks.map((t) => el('tr', { 'data-id': t.id }, taskCells(queue, group, t),
      el('td', { 'data-field': 'holder' }, t.holder),
      el('td', {}, when(t.leasedAt, now)),
      el('td', { class: 'num', 'data-field': 'progress' }, t.progress
        ? el('span', { title: t.progress.message + (t.progress.at ? ' (reported ' + span(now - t.progress.at) + ' ago)' : '') },
          t.progress.percent + '% ' + t.progress.message) : '–'),
      el('td', { 'data-field': 'deadline' }, t.deadline !== undefined ? when(t.deadline, now) : el('span', { class: 'muted' }, 'none')),
      el('td', { 'data-field': 'cancel' }, t.cancelRequested ? el('span', { class: 'badge warn' }, 'cancel requested')
        : cancelButton(queue, group, t, true))));
    replace($('main'),
      el('h1', {}, 'In flight', el('span', { class: 'muted of' }, 'in ' + viewName(queue, group)), stamp(body)),
      tabs(queue, group, 'in-flight'),
      el('section', { class: 'panel list' },
        el('p', { class: 'muted small' }, 'By holder name; a holder\u2019s tasks in the order the store keeps them. Cancel asks the worker to stop.'),
        taskTable('in-flight-tasks', ['Id', 'Partition', 'Holder', 'Since', 'Progress', 'Deadline', ''], rows,
          page.cursor ? 'No more tasks in flight.' : 'No task is in flight.'),
        el('nav', { class: 'pager', 'aria-label': 'Pages' },
          page.cursor ? el('a', { href: inFlightHref(queue, group), id: 'first-page' }, '« First page') : null,
          body.next ? el('a', { href: inFlightHref(queue, group, body.next), rel: 'next', id: 'next-page' }, 'Next →') : el('span', { class: 'muted' }, 'end of the list'))));
    wireTabs(queue, group);
  }

  /** A datetime-local input's value for epoch ms (the browser's zone), or ''. */
  function localInput(ms) {
    if (!ms) return '';
    const d = new Date(Number(ms));
    const pad = (n) => String(n).padStart(2, '0');
    return d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate()) + 'T' + pad(d.getHours()) + ':' + pad(d.getMinutes());
  }

  /** The dead letters' filters: reason text, partition, died from and before. */
  function filterForm(queue, group, filter) {
    const input = (name, attrs) => el('input', Object.assign({ id: 'filter-' + name, name, autocomplete: 'off' }, attrs));
    const form = el('form', { class: 'filters', id: 'dead-filter', role: 'search', 'aria-label': 'Filter dead letters' },
      el('label', { for: 'filter-reason' }, 'Reason has'), input('reason', { size: 16, value: filter.reason || null }),
      el('label', { for: 'filter-partition' }, 'Partition'), input('partition', { size: 12, value: filter.partition || null }),
      el('label', { for: 'filter-from' }, 'Died from'), input('from', { type: 'datetime-local', value: localInput(filter.from) || null }),
      el('label', { for: 'filter-before' }, 'before'), input('before', { type: 'datetime-local', value: localInput(filter.before) || null }),
      el('button', { type: 'submit', id: 'filter-apply' }, 'Search'),
      Object.keys(filter).length ? el('a', { href: deadHref(queue, 1, group), id: 'filter-clear' }, 'Clear') : null);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const time = (id) => ($(id).value ? String(new Date($(id).value).getTime()) : '');
      location.assign(searchHref(queue, group, { reason: $('filter-reason').value.trim(), partition: $('filter-partition').value.trim(),
        from: time('filter-from'), before: time('filter-before') }));
    });
    return form;
  }

  async function drawDeadLetters(page) {
    const { queue, group } = page;
    const searching = Object.keys(page.filter).length > 0;
    const offset = (page.page - 1) * PAGE_SIZE;
    const body = await reading(searching
      ? apiPath(queue, group, '/dead-letters/search', Object.assign({}, page.filter, { cursor: page.cursor, limit: PAGE_SIZE }))
      : apiPath(queue, group, '/dead-letters', { offset, limit: PAGE_SIZE }));
    if (!body) return;
    const action = (name) => apiPath(queue, group, '/dead-letters/' + name);
    // what the confirmations name, and what purging all asks to be typed: the queue, or the group
    const name = group ? 'group ' + group + ' of queue ' + queue : queue;
    const ids = body.items.map((d) => d.id);
    state.selected = new Set([...state.selected].filter((id) => ids.includes(id)));
    const selectedCount = () => state.selected.size;
    const bulk = () => {
      for (const id of ['redrive-selected', 'delete-selected']) {
        const button = $(id);
        if (button) {
          button.disabled = !state.token || selectedCount() === 0;
          button.textContent = (id === 'redrive-selected' ? 'Redrive' : 'Delete') + ' selected (' + selectedCount() + ')';
        }
      }
      if ($('select-all')) $('select-all').checked = ids.length > 0 && selectedCount() === ids.length;
    };
    const checkbox = (d) => {
      const box = el('input', { type: 'checkbox', class: 'select', 'aria-label': 'Select ' + d.id, checked: state.selected.has(d.id) });
      box.addEventListener('change', () => { if (box.checked) state.selected.add(d.id); else state.selected.delete(d.id); bulk(); });
      return box;
    };
    const rows = body.items.map((d) => el('tr', { 'data-id': d.id },
      el('td', {}, checkbox(d)), taskCells(queue, group, d),
      el('td', { class: 'num' }, number(d.attempts)),
      el('td', {}, el('time', { datetime: new Date(d.deadAt).toISOString(), title: clock(d.deadAt) }, clock(d.deadAt))),
      el('td', { class: 'reason' }, preview(d.reason, 'preview reason')),
      el('td', { 'data-field': 'payload' }, preview(d.payload)),
      el('td', {}, el('div', { class: 'actions' },
        actionButton('Redrive', () => act(action('redrive'), { ids: [d.id] }, (r) => r.count === 1 ? 'Redrove ' + d.id + '.' : d.id + ': ' + r.outcomes[d.id] + '.'),
          { class: 'redrive small-button', 'aria-label': 'Redrive ' + d.id }),
        actionButton('Delete', async () => {
          if (await confirmAction('Delete dead letter ' + d.id + '?', 'It is deleted for good.', 'Delete')) {
            await act(action('purge'), { ids: [d.id] }, (r) => 'Deleted ' + r.count + ' dead letter.');
          }
        }, { class: 'danger delete small-button', 'aria-label': 'Delete ' + d.id })))));
    const selectAll = el('input', { type: 'checkbox', id: 'select-all', 'aria-label': 'Select every dead letter of this page' });
    selectAll.addEventListener('change', () => {
      for (const id of ids) if (selectAll.checked) state.selected.add(id); else state.selected.delete(id);
      document.querySelectorAll('#dead-letters input.select').forEach((box) => { box.checked = selectAll.checked; });
      bulk();
    });
    const selectedIds = () => [...state.selected];
    const bulkButtons = [
      actionButton('Redrive selected', async () => {
        const chosen = selectedIds();
        if (await confirmAction('Redrive ' + chosen.length + ' dead letters of ' + name + '?', 'They go back to their partitions with attempts reset.', 'Redrive')) {
          state.selected.clear();
          await act(action('redrive'), { ids: chosen }, (r) => 'Redrove ' + r.count + ' dead letters.');
        }
      }, { id: 'redrive-selected' }),
      actionButton('Delete selected', async () => {
        const chosen = selectedIds();
        if (await confirmAction('Delete ' + chosen.length + ' dead letters of ' + name + '?', 'They are deleted for good.', 'Delete')) {
          state.selected.clear();
          await act(action('purge'), { ids: chosen }, (r) => 'Deleted ' + r.count + ' dead letters.');
        }
      }, { id: 'delete-selected', class: 'danger' })];
    let pager;
    if (searching) {
      pager = el('nav', { class: 'pager', 'aria-label': 'Pages' },
        page.cursor ? el('a', { href: searchHref(queue, group, page.filter), id: 'first-page' }, '« From the oldest') : null,
        el('span', { class: 'muted', id: 'search-position' }, number(body.items.length) + ' found among ' + number(body.examined) + ' examined'
          + (body.next ? ' (at most ' + number(body.maxExamined) + ' a search)' : ' · no more dead letters')),
        body.next ? el('a', { href: searchHref(queue, group, page.filter, body.next), rel: 'next', id: 'next-page' }, 'Search further →') : null);
    } else {
      const pages = Math.max(1, Math.ceil(body.total / PAGE_SIZE));
      pager = el('nav', { class: 'pager', 'aria-label': 'Pages' },
        page.page > 1 ? el('a', { href: deadHref(queue, page.page - 1, group), rel: 'prev', id: 'prev-page' }, '← Previous') : null,
        el('span', { class: 'muted' }, 'page ' + page.page + ' of ' + pages + (body.items.length
          ? ' · ' + (offset + 1) + '–' + (offset + body.items.length) + ' of ' + number(body.total) : '')),
        page.page < pages ? el('a', { href: deadHref(queue, page.page + 1, group), rel: 'next', id: 'next-page' }, 'Next →') : null);
    }
    replace($('main'),
      el('h1', {}, 'Dead letters of ' + name, searching ? null : el('span', { class: 'badge' + (body.total ? ' bad' : ''), id: 'dead-total' }, number(body.total))),
      tabs(queue, group, 'dead'),
      filterForm(queue, group, page.filter),
      el('div', { class: 'actions' }, bulkButtons,
        searching ? null : actionButton('Redrive all', async () => {
          if (await confirmAction('Redrive every dead letter of ' + name + '?', number(body.total) + ' tasks go back to their partitions with attempts reset.', 'Redrive all')) {
            await act(action('redrive-all'), {}, (r) => 'Redrove ' + r.count + ' dead letters.');
          }
        }, { id: 'redrive-all', disabled: !state.token || body.total === 0 }),
        searching ? null : actionButton('Purge all', async () => {
          if (await confirmAction('Purge every dead letter of ' + name + '?', number(body.total) + ' dead letters are deleted for good.', 'Purge all', group || queue)) {
            await act(action('purge-all'), {}, (r) => 'Purged ' + r.count + ' dead letters.');
          }
        }, { id: 'purge-all', class: 'danger', disabled: !state.token || body.total === 0 }),
        el('button', { type: 'button', onclick: refresh }, 'Refresh'),
        el('span', { class: 'muted small' }, 'oldest first · payloads and reasons shown as text, cut at 200 and 300 characters')),
      el('section', { class: 'panel list' }, rows.length
        ? el('table', { id: 'dead-letters', class: 'compact' }, el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, selectAll),
          ['Id', 'Partition', 'Attempts', 'Died', 'Reason', 'Payload', '']
            .map((h) => el('th', { scope: 'col', class: h === 'Attempts' ? 'num' : null }, h)))), el('tbody', {}, rows))
        : el('p', { class: 'muted' }, searching ? 'No dead letter matches among those examined.' : 'No dead letters here.'), pager));
    bulk();
    wireTabs(queue, group);
  }

  async function drawTask(queue, id, group) {
    if (!id) return problem({ error: 'no task id given' });
    const { status, body } = await get(apiPath(queue, group, '/task', { id }));
    if (status !== 200) {
      replace($('main'), el('h1', {}, 'Task ' + id), el('p', { role: 'alert', id: 'task-missing' }, body.error),
        el('p', {}, el('a', { href: queueHref(queue, group) }, 'Back to ' + viewName(queue, group))));
      return;
    }
    state.actions = body.actions;
    drawSession();
    const fields = [['State', body.state + (body.holder ? ' (held by ' + body.holder + ')' : '')],
      ['Partition', [el('a', { href: partitionHref(queue, body.partition, group) }, body.partition), body.ordered ? ' (ordered)' : '']], ['Type', body.type === null ? '(none)' : body.type],
      ['Priority', String(body.priority)],
      ['Attempts', String(body.attempts) + (body.maxAttempts ? ' of at most ' + body.maxAttempts + ' (its own limit)' : '')],
      ['Published', clock(body.publishedAt)], ['Due', clock(body.dueAt)], ['Ready', clock(body.readyAt)]];
    const done = body.completion;
    if (done) fields.push(['Completed', clock(done.completedAt)], ['Kept until', clock(done.keptUntil)]);
    const inFlight = body.state === 'in-flight';
    replace($('main'),
      el('h1', {}, 'Task ' + body.id, group ? el('span', { class: 'muted of' }, 'in group ' + group) : null),
      el('div', { class: 'actions' },
        actionButton('Cancel task', async () => {
          if (await confirmAction('Cancel task ' + body.id + '?', inFlight
            ? 'Its worker is asked to stop; the task ends as cancelled, neither retried nor dead-lettered.'
            : done ? 'The completed task and its result are deleted now.' : 'The task is deleted; it will not run.', 'Cancel task')) {
            const r = await act(apiPath(queue, group, '/task/cancel'), { id: body.id }, (r) => body.id + ': ' + r.outcome + '.');
            if (r && !inFlight) location.assign(queueHref(queue, group));
          }
        }, { class: 'danger', id: 'cancel-task' }),
        body.state === 'dead' ? el('a', { href: deadHref(queue, 1, group) }, 'Dead letters') : null,
        done ? el('a', { href: completedHref(queue, group) }, 'Completed tasks') : null),
      el('section', { class: 'panel' }, el('dl', { class: 'fields', id: 'task-fields' },
        fields.map(([name, value]) => [el('dt', {}, name), el('dd', {}, value)]),
        Object.entries(body.headers).map(([name, value]) => [el('dt', {}, 'header ' + name), el('dd', {}, value)]))),
      body.lastError ? el('section', { class: 'panel' }, el('h2', {}, 'Last error'), preview(body.lastError, 'block', 'task-last-error')) : null,
      el('section', { class: 'panel' }, el('h2', {}, 'Payload (' + number(body.payload.bytes) + ' bytes)'), preview(body.payload, 'block', 'task-payload')),
      done ? el('section', { class: 'panel' }, el('h2', {}, 'Result (' + number(done.result.bytes) + ' bytes)'),
        done.result.bytes ? preview(done.result, 'block', 'task-result') : el('p', { class: 'muted', id: 'task-result' }, 'It kept no result.')) : null);
  }

  // ---- keyboard ------------------------------------------------------------------------------

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target.closest && target.closest('input, textarea, select, dialog')) return;
    const page = state.page;
    const go = (href) => { event.preventDefault(); location.assign(href); };
    switch (event.key) {
      case 'o': return go(BASE + '/');
      case 'q': if (page.queue) go(queueHref(page.queue, page.group)); return;
      case 'd': if (page.queue) go(deadHref(page.queue, 1, page.group)); return;
      case 'r': event.preventDefault(); refresh(); return;
      case '/': event.preventDefault(); $('find-id').focus(); return;
      case 'n': if ($('next-page')) go($('next-page').getAttribute('href')); return;
      case 'p': if ($('prev-page')) go($('prev-page').getAttribute('href')); return;
      default: return;
    }
  }

  // ---- start ---------------------------------------------------------------------------------

  // The printed link carries the token in the fragment, which never reaches a server or a log:
  // keep it for this tab and take it out of the address bar at once.
  async function takeTokenFromAddress() {
    if (!location.hash.startsWith('#token=')) return false;
    const token = decodeURIComponent(location.hash.slice('#token='.length));
    history.replaceState(null, '', location.pathname + location.search);
    if (token) await tryToken(token).catch(() => false);
    return true;
  }

  async function start() {
    if (!await takeTokenFromAddress()) {
      state.token = sessionStorage.getItem(TOKEN_KEY);
    }
    // the link pasted into a tab that already shows the dashboard changes only the fragment: no new page load
    window.addEventListener('hashchange', async () => {
      if (await takeTokenFromAddress()) {
        drawSession();
        await refresh();
      }
    });
    state.actions = true;
    state.page = route();
    crumbs(state.page);
    drawSession();
    document.addEventListener('keydown', onKey);
    $('find-task').addEventListener('submit', (event) => {
      event.preventDefault();
      const queue = $('find-queue').value.trim();
      const id = $('find-id').value.trim();
      // on a group's page, the task is looked up in that group (each group has its own state of a task)
      if (queue && id) location.assign(taskHref(queue, id, queue === state.page.queue ? state.page.group : null));
    });
    await refresh();
  }

  document.addEventListener('DOMContentLoaded', start);
}());
