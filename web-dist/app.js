// The svc browser app: no build step, no framework. Everything it shows from runs, agents and
// workflows is data: it is put on the page with textContent, never parsed as HTML.

const $ = (sel) => document.querySelector(sel);

const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'on') for (const [ev, fn] of Object.entries(v)) node.addEventListener(ev, fn);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
};

const api = async (method, path, body) => {
  const res = await fetch(path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.detail || `${method} ${path}: ${res.status}`);
  return data;
};

const badge = (standing) => el('span', { class: `badge ${standing}` }, standing);

// ---- sidebar: runs and the new-run form ----

let currentRun = null;

const renderRuns = (runs) => {
  const list = $('#runs');
  list.replaceChildren(...(runs.length ? runs.map((r) => el('li', {}, el('a', { href: `/runs/${r.runId}`, 'data-link': true, 'aria-current': r.runId === currentRun ? 'page' : null }, badge(r.standing), el('span', { class: 'title' }, r.title)))) : [el('li', { class: 'muted' }, 'No runs yet.')]));
};

const refreshSidebar = async () => {
  try {
    const [runs, health] = await Promise.all([api('GET', '/api/runs'), api('GET', '/api/health')]);
    renderRuns(runs);
    $('#health').textContent = `v${health.version} · ${health.projects} projects · ${health.runs} runs`;
  } catch (err) {
    $('#health').textContent = `server unreachable: ${err.message}`;
  }
};

const fillWorkflows = async (form) => {
  const project = form.project.value;
  if (!project) return form.workflow.replaceChildren();
  const { workflows } = await api('GET', `/api/workflows?project=${encodeURIComponent(project)}`);
  form.workflow.replaceChildren(...workflows.map((w) => el('option', { value: w.name, selected: w.standing === 'default' }, `${w.name}${w.standing === 'default' ? ' (default)' : ''}`)));
};

const setUpForm = async () => {
  const form = $('#new-run');
  const projects = await api('GET', '/api/projects');
  form.project.replaceChildren(...projects.map((p) => el('option', { value: p.id }, p.name)));
  if (!projects.length) form.project.replaceChildren(el('option', { value: '' }, 'no projects: svc project add NAME PATH'));
  await fillWorkflows(form);
  form.project.addEventListener('change', () => fillWorkflows(form));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const error = form.querySelector('.error');
    error.hidden = true;
    const body = { project: form.project.value, goal: form.goal.value, workflow: form.workflow.value || undefined, title: form.title.value || undefined, harness: form.harness.value || undefined };
    try {
      const { runId } = await api('POST', '/api/runs', body);
      form.goal.value = '';
      form.title.value = '';
      navigate(`/runs/${runId}`);
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  });
};

// ---- the run page ----

let watching = 0;

const act = async (path, body, note) => {
  try {
    const r = await api('POST', path, body);
    if (r.outcome === 'Stale') note('The run moved on before that arrived; nothing was applied. Look again.');
    else note('');
    await showRun(currentRun, false);
  } catch (err) {
    note(err.message);
  }
};

const controlButtons = (run, note, steps) => run.allowedActions.map((action) => {
  const go = (extra = {}) => act(`/api/runs/${run.id}/control`, { position: run.position, action, ...extra }, note);
  if (action === 'ChangeHarness') {
    const pick = el('select', { 'aria-label': 'harness' }, ['claude', 'codex', 'opencode'].map((h) => el('option', {}, h)));
    return el('span', { class: 'row' }, pick, el('button', { on: { click: () => go({ harness: pick.value }) } }, 'Change harness'));
  }
  if (action === 'Jump') {
    const pick = el('select', { 'aria-label': 'step' }, steps.map((s) => el('option', {}, s)));
    return el('span', { class: 'row' }, pick, el('button', { on: { click: () => go({ node: pick.value }) } }, 'Jump'));
  }
  return el('button', { on: { click: () => go() } }, action);
});

const questionCard = (run, note) => {
  const q = run.question;
  if (!q) return null;
  const answer = (value) => act(`/api/runs/${run.id}/answers`, { question: q.id, answer: value }, note);
  const text = el('input', { placeholder: 'Your answer' });
  return el('div', { class: 'card question' }, el('h2', {}, 'The agent asks'), el('p', { class: 'goal' }, q.prompt),
    el('div', { class: 'row' }, q.options.map((o) => el('button', { on: { click: () => answer([o]) } }, o))),
    q.allowText ? el('div', { class: 'row' }, text, el('button', { on: { click: () => answer(text.value) } }, 'Answer')) : null);
};

const messageCard = (run, note) => {
  if (run.standing === 'Succeeded' || run.standing === 'Failed' || run.standing === 'Aborted') return null;
  const text = el('textarea', { rows: 2, placeholder: 'Message the agent' });
  const send = (delivery) => act(`/api/runs/${run.id}/messages`, { text: text.value, delivery }, note);
  return el('div', { class: 'card' }, el('h2', {}, 'Message'), text,
    el('div', { class: 'row' }, el('button', { on: { click: () => send('Resume') } }, 'Send now'), el('button', { on: { click: () => send('Hold') } }, 'Hold for next turn')));
};

const goalCard = (run, note) => {
  const ended = ['Succeeded', 'Failed', 'Aborted'].includes(run.standing);
  const box = el('textarea', { rows: 3 });
  box.value = run.goal;
  const edit = el('div', { hidden: true }, box, el('button', { on: { click: () => act(`/api/runs/${run.id}/goal`, { goal: box.value }, note) } }, 'Save goal'));
  return el('div', { class: 'card' }, el('h2', {}, 'Goal'), el('p', { class: 'goal' }, run.goal),
    ended ? null : el('button', { on: { click: () => { edit.hidden = !edit.hidden; } } }, 'Revise goal'), edit);
};

const housekeeping = (run, note) => {
  const ended = ['Succeeded', 'Failed', 'Aborted', 'Created'].includes(run.standing);
  return el('div', { class: 'row' },
    ended ? el('button', { on: { click: () => act(`/api/runs/${run.id}/archive`, { state: run.archived ? 'Active' : 'Archived' }, note) } }, run.archived ? 'Unarchive' : 'Archive') : null,
    (run.standing === 'Failed' || run.standing === 'Aborted') && !run.resolved ? el('button', { on: { click: () => act(`/api/runs/${run.id}/resolve`, {}, note) } }, 'Resolve') : null,
    el('button', { on: { click: async () => { try { const r = await api('POST', `/api/runs/${run.id}/export`); note(`Exported to ${r.path}`); } catch (e) { note(e.message); } } } }, 'Export'));
};

const threadList = (rows) => el('ul', { class: 'thread' }, rows.map((r) => el('li', { 'data-kind': r.kind }, el('span', { class: 'who' }, r.authorName ?? r.author), r.text)));

const showRun = async (runId, startWatching = true) => {
  const view = $('#view');
  const [run, thread, log] = await Promise.all([
    api('GET', `/api/runs/${runId}/detail`), api('GET', `/api/runs/${runId}/thread?pageSize=200`), api('GET', `/api/runs/${runId}/log?pageSize=200`),
  ]).catch((err) => { view.replaceChildren(el('p', { class: 'error' }, err.message)); return []; });
  if (!run || currentRun !== runId) return;
  const steps = await api('GET', `/api/workflows/${encodeURIComponent(run.workflow)}?project=${encodeURIComponent(run.projectId)}`).then((w) => w.steps.filter((s) => s.kind !== 'start').map((s) => s.id)).catch(() => []);
  const noteLine = el('p', { class: 'error', role: 'status' });
  const note = (text) => { noteLine.textContent = text; };
  view.replaceChildren(...[
    el('h1', {}, run.title), el('div', { class: 'row' }, badge(run.standing), el('span', { class: 'muted' }, `${run.phase} · ${run.workflow} · step ${run.currentStep ?? '–'}${run.waitEndsAt ? ` · until ${new Date(run.waitEndsAt).toLocaleString()}` : ''}`)),
    run.pullRequest ? el('p', {}, 'Pull request: ', el('a', { href: run.pullRequest.url, rel: 'noreferrer noopener', target: '_blank' }, run.pullRequest.url)) : null,
    run.unreadableHistory ? el('p', { class: 'error' }, `Part of this run's history cannot be read: ${run.unreadableHistory}`) : null,
    el('div', { class: 'controls row', 'aria-label': 'controls' }, controlButtons(run, note, steps)), noteLine,
    questionCard(run, note), goalCard(run, note), messageCard(run, note), housekeeping(run, note),
    el('h2', {}, 'Thread'), threadList(thread.rows),
    el('h2', {}, 'Log'), el('pre', { class: 'log' }, log.lines.map((l) => `${l.at.slice(11, 19)} ${l.source === 'agent' ? '│' : '·'} ${l.text}`).join('\n')),
  ].filter(Boolean));
  if (startWatching) watch(runId);
};

// Long-poll the run: the page changes when the run does, without polling for nothing.
const watch = async (runId) => {
  const me = ++watching;
  while (me === watching && currentRun === runId) {
    try {
      const r = await api('GET', `/api/runs/${runId}/wait?timeout=20`);
      if (me !== watching) return;
      await showRun(runId, false);
      if (r.changed === 'AlreadyEnded') return;
    } catch {
      await new Promise((res) => setTimeout(res, 2000));
    }
  }
};

// ---- routing ----

const route = async () => {
  const m = /^\/runs\/([^/]+)$/.exec(location.pathname);
  currentRun = m ? decodeURIComponent(m[1]) : null;
  await refreshSidebar();
  if (currentRun) return showRun(currentRun);
  watching++;
  $('#view').replaceChildren(el('h1', {}, 'Runs'), el('p', { class: 'muted' }, 'Pick a run on the left, or start one.'));
};

const navigate = (path) => {
  history.pushState(null, '', path);
  void route();
};

document.addEventListener('click', (ev) => {
  const a = ev.target.closest('a[data-link]');
  if (!a || ev.metaKey || ev.ctrlKey) return;
  ev.preventDefault();
  navigate(a.getAttribute('href'));
});
window.addEventListener('popstate', () => void route());

await setUpForm().catch((err) => { $('#health').textContent = err.message; });
await route();
setInterval(refreshSidebar, 3000);
