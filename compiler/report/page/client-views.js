// The report page's other tabs (inlined after client-ui.js and client-schema.js, before
// client.js): the cost chart, the disclosure stages, the prompt budget and the diagnostics.
// Each renders the page's state into its panel; `rerender` redraws the tab after a choice.
// biome-ignore lint/correctness/noUnusedVariables: used by client.js, which is inlined after this file.
var ZRViews = (() => {
  const { h, fmt, bars } = ZR;
  /** Appends the nodes that exist (`append` would write "null" for the others). */
  const put = (parent, ...nodes) => parent.append(...nodes.filter((n) => n !== null && n !== undefined && n !== false));
  const principalLabel = (p) => `${p.platform} / ${p.scope} / ${p.role}`;

  function diagnosticBlock(data, index) {
    const d = data.diagnostics[index];
    return h('div', { class: `diagnostic severity-${d.severity}` }, [
      h('p', {}, [h('strong', { text: `${d.severity} ${d.code}` }), ` ${d.file}:${d.line}:${d.column}  `, d.message]),
      d.frame ? h('pre', { class: 'frame', text: d.frame }) : null,
      d.hint ? h('p', { class: 'hint', text: `hint: ${d.hint}` }) : null,
    ]);
  }

  function cost(panel, state, rerender) {
    const { cost, principals, tools } = state.data;
    if (!cost.allTools) return put(panel, h('p', { text: state.data.runtimeError || 'no runtime data' }));
    const select = h(
      'select',
      { id: 'zr-cost-principal', 'aria-label': 'Turn start of' },
      principals.map((p, i) => h('option', { value: i, text: principalLabel(p), selected: i === state.principal })),
    );
    select.addEventListener('change', () => {
      state.principal = Number(select.value);
      rerender();
      document.getElementById('zr-cost-principal')?.focus();
    });
    const start = cost.turnStart[state.principal];
    const items = [];
    for (const provider of Object.keys(cost.allTools)) {
      items.push({
        label: `${provider}: all ${fmt(tools.length)} tools`,
        value: cost.allTools[provider].tokens,
        className: 'all',
      });
      if (start && !start.error)
        items.push({
          label: `${provider}: deferred turn start (${start.sent} sent)`,
          value: start.deferred[provider].tokens,
          className: 'deferred',
        });
    }
    const max = Math.max(1, ...items.map((i) => i.value));
    const largest = tools
      .filter((t) => t.sizes)
      .sort((a, b) => b.sizes.anthropic.tokens - a.sizes.anthropic.tokens)
      .slice(0, 15);
    put(
      panel,
      h('h2', { text: 'Prompt cost of tool definitions' }),
      h('label', { for: 'zr-cost-principal', text: 'Turn start of ' }),
      select,
      start?.error ? h('p', { class: 'error', text: start.error }) : null,
      start && !start.error && start.agent
        ? h('p', { text: `platform agent ${start.agent} is selected at this turn start` })
        : null,
      h('div', { class: 'chart', id: 'zr-cost-chart' }, [bars(items, max, 'tokens')]),
      h('p', {
        class: 'muted',
        text: 'Estimates: about one token per 4 bytes of ASCII JSON, one per other character. Deferred Anthropic tools (defer_loading) are not counted up front.',
      }),
      h('h3', { text: 'Largest tools' }),
      bars(
        largest.map((t) => ({
          label: t.name,
          value: t.sizes.anthropic.tokens,
          note: `(${fmt(t.sizes.anthropic.bytes)} bytes)`,
        })),
        Math.max(1, ...largest.map((t) => t.sizes.anthropic.tokens)),
        'tokens',
      ),
    );
  }

  function chips(names, limit) {
    const more = names.length - limit;
    return h('p', { class: 'chips' }, [
      ...names.slice(0, limit).map((n) => h('span', { class: 'chip', text: n })),
      more > 0 ? h('span', { class: 'muted', text: `and ${fmt(more)} more` }) : null,
    ]);
  }

  function disclosure(panel, state, rerender) {
    const sets = state.data.stages;
    if (sets.length === 0) return put(panel, h('p', { text: state.data.runtimeError || 'no runtime data' }));
    const select = h(
      'select',
      { id: 'zr-stage-platform', 'aria-label': 'Platform' },
      sets.map((s, i) => h('option', { value: i, text: principalLabel(s.principal), selected: i === state.platform })),
    );
    select.addEventListener('change', () => {
      state.platform = Number(select.value);
      rerender();
      document.getElementById('zr-stage-platform')?.focus();
    });
    const set = sets[Math.min(state.platform, sets.length - 1)];
    const title = (s) =>
      s.kind === 'turn-start'
        ? `Turn start${s.auto && s.agent ? ` (platform agent ${s.agent} auto-selected)` : ''}`
        : s.kind === 'agent'
          ? `Agent ${s.agent} selected`
          : `load_skill ${s.skill}${s.agent ? ` (agent ${s.agent})` : ''}`;
    const card = (s) =>
      h(
        'article',
        {
          class: `stage stage-${s.kind}`,
          'data-stage': title(s),
          style: `margin-left:${s.parent === null ? 0 : s.kind === 'skill' && set.stages[s.parent].kind === 'agent' ? 3 : 1.5}rem`,
        },
        [
          h('h3', { text: title(s) }),
          s.error
            ? h('p', { class: 'error', text: s.error })
            : h('div', {}, [
                h('p', {
                  text: `${fmt(s.toolCount)} tools listed${s.parent === null ? '' : `: ${fmt(s.tools.length)} added${s.removed.length ? `, ${s.removed.length} removed` : ''}`}`,
                }),
                chips(s.tools, 40),
                s.skills.length ? h('p', { text: `skills: ${s.skills.join(', ')}` }) : null,
                s.agents.length ? h('p', { text: `agents: ${s.agents.join(', ')}` }) : null,
                s.withheld.length
                  ? h('details', {}, [
                      h('summary', { text: `${s.withheld.length} withheld by access` }),
                      h(
                        'ul',
                        {},
                        s.withheld.map((w) => h('li', { text: `${w.kind} ${w.name}: ${w.detail}` })),
                      ),
                    ])
                  : null,
              ]),
        ],
      );
    put(
      panel,
      h('h2', { text: 'What the model sees, stage by stage' }),
      h('label', { for: 'zr-stage-platform', text: 'Principal ' }),
      select,
      ...set.stages.map(card),
    );
  }

  function prompt(panel, state) {
    const { prompt } = state.data;
    const max = prompt.systemPromptMaxChars;
    panel.append(
      h('h2', { text: 'Prompt budget' }),
      h('p', {
        text:
          max === null
            ? 'systemPromptMaxChars: unknown (no runtime data)'
            : `systemPromptMaxChars: ${fmt(max)} characters`,
      }),
    );
    const scale = max || Math.max(1, ...prompt.sections.map((s) => s.maxChars ?? s.contentChars ?? 0));
    panel.append(
      h('h3', { text: 'Prompt sections (in assembly order)' }),
      h('div', { id: 'zr-prompt-bars' }, [
        bars(
          prompt.sections.map((s) => ({
            label: `${s.title} (${s.id})`,
            value: s.maxChars ?? s.contentChars ?? 0,
            share: max ? (s.maxChars ?? s.contentChars ?? 0) / max : undefined,
            mark: s.contentChars ?? undefined,
            className: `retention-${s.retention}`,
            note: `${s.maxChars === null ? 'uncapped, ' : 'maxChars, '}${s.retention}, ${s.layer} order ${s.order}${s.platforms.length ? `, ${s.platforms.join('/')}` : ''}, ${s.profiles.join('/')}${s.contentChars === null ? ', content computed at load' : ''}`,
          })),
          scale,
          'chars',
        ),
      ]),
      h('h3', { text: 'Required parts' }),
      bars(
        prompt.required.map((r) => ({
          label: r.label,
          value: r.chars,
          share: max ? r.chars / max : undefined,
          className: 'retention-required',
        })),
        scale,
        'chars',
      ),
    );
  }

  function diagnostics(panel, state) {
    const list = state.data.diagnostics;
    panel.append(
      h('h2', { text: `${list.length} diagnostic${list.length === 1 ? '' : 's'}` }),
      ...list.map((_, i) => diagnosticBlock(state.data, i)),
    );
  }

  return { put, principalLabel, diagnosticBlock, cost, disclosure, prompt, diagnostics };
})();
