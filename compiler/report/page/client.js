// The report page (docs/report.md): tabs over one data document, read from the page's JSON
// element (or fetched again by the dev inspector after each regeneration). Keyboard: "/" focuses
// the search, arrows move within the tab list and the lists, Enter opens, Escape clears.
(() => {
  const { h, clear, fmt, VirtualList, showTip, hideTip } = ZR;
  const { principalLabel, diagnosticBlock } = ZRViews;
  const started = performance.now();
  const TABS = [
    ['tree', 'Tree'],
    ['disclosure', 'Disclosure'],
    ['access', 'Access'],
    ['cost', 'Cost'],
    ['prompt', 'Prompt'],
    ['diagnostics', 'Diagnostics'],
  ];
  const state = { data: null, tab: 'tree', query: '', selected: null, principal: 0, platform: 0, revision: 0 };
  const app = document.getElementById('app');
  const timings = { firstPaintMs: 0, lastSearchMs: 0 };

  // ── Tree rows ──────────────────────────────────────────────────────────────
  let rows = [];
  let shown = [];
  function buildRows(data) {
    const out = [];
    const caps = (kind, owner) => data.capabilities.filter((c) => c.kind === kind && c.owner === owner);
    const tools = (owner, test) => data.tools.filter((t) => t.owner === owner && test(t));
    const push = (type, item, depth, label, meta) =>
      out.push({
        type,
        item,
        depth,
        label,
        meta,
        hay: `${label} ${meta} ${item.description || item.title || ''}`.toLowerCase(),
      });
    const pushTool = (t, depth) => push('tool', t, depth, t.name, `${t.placement} ${t.source}`);
    const plugin = (p, depth) => {
      push('plugin', p, depth, p.owner === '' ? '(root plugin)' : `plugin ${p.owner}`, p.dir || '.');
      for (const t of tools(p.owner, (t) => t.placement === 'plugin')) pushTool(t, depth + 1);
      for (const s of caps('skill', p.owner).filter((s) => s.agent === null)) {
        push('skill', s, depth + 1, s.name, s.source);
        for (const t of tools(p.owner, (t) => t.placement === 'skill' && t.skill === s.localName))
          pushTool(t, depth + 2);
      }
      for (const a of caps('agent', p.owner)) {
        push('agent', a, depth + 1, a.name, a.source);
        for (const t of tools(p.owner, (t) => t.placement === 'agent' && t.agent === a.localName))
          pushTool(t, depth + 2);
        for (const s of caps('skill', p.owner).filter((s) => s.agent === a.localName)) {
          push('skill', s, depth + 2, s.name, s.source);
          const own = (t) => t.placement === 'agent-skill' && t.agent === a.localName && t.skill === s.localName;
          for (const t of tools(p.owner, own)) pushTool(t, depth + 3);
        }
      }
      for (const c of [...caps('section', p.owner), ...caps('hook', p.owner)])
        push(c.kind, c, depth + 1, c.name, c.source);
      const parent = (o) => (o.includes('/') ? o.slice(0, o.lastIndexOf('/')) : '');
      for (const child of data.plugins.filter(
        (c) => c.owner !== '' && c.owner !== p.owner && parent(c.owner) === p.owner,
      ))
        plugin(child, depth + 1);
    };
    const root = data.plugins.find((p) => p.owner === '');
    if (root) plugin(root, 0);
    return out;
  }

  function matches(hay, query) {
    return query.split(/\s+/).every((word) => word === '' || hay.includes(word));
  }

  function filter() {
    const query = state.query.trim().toLowerCase();
    shown = query === '' ? rows : rows.filter((row) => matches(row.hay, query));
    accessTools =
      query === ''
        ? state.data.tools
        : state.data.tools.filter((t) => matches(`${t.name} ${t.source} ${t.description}`.toLowerCase(), query));
  }

  // ── Layout ─────────────────────────────────────────────────────────────────
  const search = h('input', {
    type: 'search',
    id: 'zr-search',
    placeholder: 'Search tools, skills, agents… ( / )',
    'aria-label': 'Search capabilities',
    autocomplete: 'off',
    on: {
      input: () => {
        const t0 = performance.now();
        state.query = search.value;
        filter();
        refreshLists();
        timings.lastSearchMs = performance.now() - t0;
      },
      keydown: (event) => {
        if (event.key === 'Escape') {
          search.value = '';
          search.dispatchEvent(new Event('input'));
        } else if (event.key === 'Enter' || event.key === 'ArrowDown') {
          event.preventDefault();
          currentList()?.moveTo(0, 0);
        }
      },
    },
  });
  const summary = h('p', { class: 'summary', 'aria-live': 'polite' });
  const tablist = h('div', { role: 'tablist', 'aria-label': 'Report sections', class: 'tabs' });
  const panels = {};
  const tabButtons = {};
  for (const [id, label] of TABS) {
    tabButtons[id] = h('button', {
      role: 'tab',
      id: `tab-${id}`,
      'aria-controls': `panel-${id}`,
      text: label,
      on: { click: () => selectTab(id, true) },
    });
    tablist.append(tabButtons[id]);
    panels[id] = h('section', { role: 'tabpanel', id: `panel-${id}`, 'aria-labelledby': `tab-${id}`, class: 'panel' });
  }
  tablist.addEventListener('keydown', (event) => {
    const index = TABS.findIndex(([id]) => id === state.tab);
    const step = { ArrowRight: 1, ArrowLeft: -1, Home: -index, End: TABS.length - 1 - index }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    selectTab(TABS[(index + step + TABS.length) % TABS.length][0], true);
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === '/' && !/^(INPUT|SELECT|TEXTAREA)$/.test(document.activeElement.tagName)) {
      event.preventDefault();
      search.focus();
    }
  });
  const banner = h('div', { class: 'banner', role: 'status' });
  app.append(
    h('header', {}, [h('h1', { id: 'zr-title' }), summary, search]),
    banner,
    tablist,
    ...Object.values(panels),
    ZR.tip,
  );

  function selectTab(id, focus) {
    state.tab = id;
    hideTip();
    for (const [tab] of TABS) {
      tabButtons[tab].setAttribute('aria-selected', String(tab === id));
      tabButtons[tab].tabIndex = tab === id ? 0 : -1;
      panels[tab].hidden = tab !== id;
    }
    if (focus) tabButtons[id].focus();
    renderTab();
  }

  // ── Tree tab ───────────────────────────────────────────────────────────────
  const detail = h('div', { class: 'detail', id: 'zr-detail', 'aria-live': 'polite' });
  const treeList = new VirtualList({
    label: 'Capability tree',
    className: 'tree',
    renderRow: (index) => {
      const row = shown[index];
      const diagnostics = row.item.diagnostics ? row.item.diagnostics.length : 0;
      return h(
        'div',
        { class: `row kind-${row.type}`, 'data-name': row.label, style: `padding-left:${0.5 + row.depth * 1.1}rem` },
        [
          h('span', { class: `badge badge-${row.type}`, text: row.type }),
          h('span', { class: 'row-name', text: row.label }),
          h('span', { class: 'row-meta', text: row.meta }),
          diagnostics
            ? h('span', { class: 'row-diag', text: `${diagnostics} diagnostic${diagnostics > 1 ? 's' : ''}` })
            : null,
        ],
      );
    },
    onMove: (index) => showDetail(shown[index]),
    onEnter: (index) => showDetail(shown[index], true),
  });
  panels.tree.append(h('div', { class: 'split' }, [treeList.root, detail]));

  function facts(pairs) {
    return h(
      'dl',
      { class: 'facts' },
      pairs.filter(([, v]) => v !== null && v !== '').flatMap(([k, v]) => [h('dt', { text: k }), h('dd', { text: v })]),
    );
  }

  const list = (values, none) => (values.length ? values.join(', ') : none);

  function showDetail(row, focus) {
    if (!row) return;
    state.selected = `${row.type}:${row.label}`;
    clear(detail);
    const item = row.item;
    detail.append(h('h2', { text: row.label }));
    if (row.type === 'tool') {
      detail.append(
        h('p', { class: 'description', text: item.description }),
        facts([
          ['qualifiedName', item.name],
          ['placement', item.placement],
          ['owner', item.owner === '' ? '(root)' : item.owner],
          ['source', item.source],
          ['disclosed', item.disclosure],
          ['approval', item.approval],
          ['platforms', list(item.platforms, 'all')],
          ['scopes', list(item.scopes, 'all')],
          ['permits', list(item.permissions, 'none')],
          [
            'flags',
            [item.hidden ? 'hidden' : '', item.conditional ? 'conditional (setup())' : ''].filter(Boolean).join(', '),
          ],
          ['schema', item.schemaVia],
        ]),
      );
      if (item.sizes) {
        detail.append(
          h('h3', { text: 'Size' }),
          h('table', { class: 'sizes' }, [
            h('tr', {}, [h('th', { text: '' }), h('th', { text: 'bytes' }), h('th', { text: '≈ tokens' })]),
            h('tr', {}, [
              h('th', { text: 'input schema' }),
              h('td', { text: fmt(item.schemaSize.bytes) }),
              h('td', { text: fmt(item.schemaSize.tokens) }),
            ]),
            ...Object.entries(item.sizes).map(([provider, size]) =>
              h('tr', {}, [
                h('th', { text: `${provider} request` }),
                h('td', { text: fmt(size.bytes) }),
                h('td', { text: fmt(size.tokens) }),
              ]),
            ),
          ]),
        );
      }
      detail.append(h('h3', { text: 'Input' }), ZRSchema.form(item.schema, `Input of ${item.name}`));
      if (item.access >= 0) {
        const cells = state.data.access.cells[item.access];
        const denied = state.data.principals.map((p, i) => [p, cells[i]]).filter(([, reason]) => reason !== null);
        detail.append(
          h('h3', { text: 'Access' }),
          h('p', { text: `admitted for ${cells.length - denied.length} of ${cells.length} principals` }),
          h(
            'ul',
            { class: 'denied' },
            denied.map(([p, reason]) => h('li', { text: `${p.platform} / ${p.scope} / ${p.role}: ${reason}` })),
          ),
        );
      }
    } else if (row.type === 'plugin') {
      detail.append(
        facts([
          ['owner', item.owner === '' ? '(root)' : item.owner],
          ['directory', item.dir || '.'],
          ['AGENTS.md', item.agentsMd],
          ['entry', item.entry],
        ]),
      );
    } else {
      detail.append(
        h('p', { class: 'description', text: item.title }),
        facts([
          ['name', item.name],
          ['source', item.source],
          ['', item.detail],
        ]),
      );
    }
    if (item.diagnostics?.length)
      detail.append(h('h3', { text: 'Diagnostics' }), ...item.diagnostics.map((i) => diagnosticBlock(state.data, i)));
    if (focus) detail.scrollTop = 0;
  }

  // ── Access tab ─────────────────────────────────────────────────────────────
  let accessTools = [];
  const accessStatus = h('p', { class: 'access-status', id: 'zr-access-status', 'aria-live': 'polite' });
  const accessHeader = h('div', { class: 'grid-header', 'aria-hidden': 'true' });
  const reasonOf = (tool, column) => {
    if (tool.access < 0) return 'no decision: added by setup() at runtime';
    const reason = state.data.access.cells[tool.access][column];
    return reason === null ? 'admitted' : `denied: ${reason}`;
  };
  const accessList = new VirtualList({
    label: 'Access matrix: tools by platform, scope and role',
    className: 'grid',
    rowHeight: 26,
    header: accessHeader,
    columns: () => state.data.principals.length,
    rowHeader: (index) => h('div', { class: 'row-head', role: 'rowheader', text: accessTools[index].name }),
    renderCell: (index, column) => {
      const tool = accessTools[index];
      const reason = reasonOf(tool, column);
      const verdict = tool.access < 0 ? 'unknown' : reason === 'admitted' ? 'admitted' : 'denied';
      const cell = h('div', {
        class: `cell ${verdict}`,
        'aria-label': `${tool.name}, ${principalLabel(state.data.principals[column])}: ${reason}`,
        text: { admitted: '✓', denied: '✗', unknown: '–' }[verdict],
      });
      cell.addEventListener('mouseenter', () => showTip(reason, cell));
      cell.addEventListener('mouseleave', () => hideTip(cell));
      return cell;
    },
    onFocus: (index, column, element) => {
      const tool = accessTools[index];
      const text = `${tool.name} × ${principalLabel(state.data.principals[column])}: ${reasonOf(tool, column)}`;
      accessStatus.textContent = text;
      showTip(reasonOf(tool, column), element);
    },
  });
  accessList.root.addEventListener('focusout', () => hideTip());
  panels.access.append(accessStatus, accessList.root);

  function renderAccessHeader() {
    clear(accessHeader).append(
      h('div', { class: 'row-head', text: 'tool' }),
      ...state.data.principals.map((p) =>
        h('div', { class: 'col-head', title: principalLabel(p) }, [
          h('span', { text: p.platform }),
          h('span', { text: p.scope }),
          h('span', { text: p.role }),
        ]),
      ),
    );
  }

  function currentList() {
    return state.tab === 'tree' ? treeList : state.tab === 'access' ? accessList : null;
  }

  function refreshLists() {
    treeList.setCount(shown.length);
    accessList.setCount(accessTools.length);
  }

  /** What each built panel shows (data revision and choices): switching back to it rebuilds nothing. */
  const built = {};
  function renderTab() {
    const panel = panels[state.tab];
    if (state.tab === 'tree' || state.tab === 'access') return refreshLists();
    const key = `${state.revision}:${state.principal}:${state.platform}`;
    if (built[state.tab] === key) return;
    built[state.tab] = key;
    clear(panel);
    ZRViews[state.tab](panel, state, renderTab);
  }

  function setData(data) {
    state.data = data;
    document.body.dataset.revision = String(++state.revision);
    rows = buildRows(data);
    filter();
    document.getElementById('zr-title').textContent = `zhin-gen report: ${data.title}`;
    const count = (n, one) => `${fmt(n)} ${one}${n === 1 ? '' : 's'}`;
    const kinds = (kind) => data.capabilities.filter((c) => c.kind === kind).length;
    summary.textContent = [
      count(data.tools.length, 'tool'),
      count(kinds('skill'), 'skill'),
      count(kinds('agent'), 'agent'),
      count(kinds('section'), 'prompt section'),
      count(kinds('hook'), 'hook'),
      count(data.errors, 'error'),
      count(data.warnings, 'warning'),
    ].join(' · ');
    banner.textContent = data.runtimeError || '';
    banner.hidden = !data.runtimeError;
    tabButtons.diagnostics.textContent = `Diagnostics (${data.diagnostics.length})`;
    renderAccessHeader();
    selectTab(state.tab, false);
    refreshLists();
    const again = shown.findIndex((row) => `${row.type}:${row.label}` === state.selected);
    if (again >= 0) showDetail(shown[again]);
    else if (!state.selected && shown.length) showDetail(shown[0]);
  }

  setData(JSON.parse(document.getElementById('zhin-report-data').textContent));
  timings.firstPaintMs = performance.now() - started;

  window.zhinReport = {
    timings,
    /** The dev inspector: fetch the new report and render it in place (no reload). */
    refresh: (url) =>
      fetch(url, { cache: 'no-store' })
        .then((response) => response.json())
        .then(setData),
  };
})();
