// The report page's building blocks (inlined into the page before client.js; plain browser JS, no
// imports). Every node is made by `h`, which sets text with textContent and attributes with
// setAttribute: no string of the data is ever parsed as HTML. Lists are virtualised: only the
// rows in view (plus a margin) exist in the DOM, so 5,000 tools cost what 40 do.
// biome-ignore lint/correctness/noUnusedVariables: used by client.js, which is inlined after this file.
var ZR = (() => {
  /** An element: `attrs.text` is its text, `attrs.on` its listeners, the rest attributes; children nodes or strings. */
  function h(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === 'text') node.textContent = String(value);
      else if (key === 'on') for (const [type, fn] of Object.entries(value)) node.addEventListener(type, fn);
      else if (key === 'style') node.style.cssText = value;
      else node.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children || []) {
      if (child === null || child === undefined || child === false) continue;
      node.append(typeof child === 'string' ? document.createTextNode(child) : child);
    }
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.firstChild.remove();
    return node;
  }

  const number = new Intl.NumberFormat('en');
  const fmt = (n) => number.format(n);

  /** One tooltip for the page, shown on hover and on keyboard focus. */
  const tip = h('div', { id: 'zr-tooltip', role: 'tooltip', class: 'tooltip', hidden: true });
  function showTip(text, anchor) {
    tip.textContent = text;
    tip.hidden = false;
    const box = anchor.getBoundingClientRect();
    const top = box.bottom + 6 + tip.offsetHeight > innerHeight ? box.top - tip.offsetHeight - 6 : box.bottom + 6;
    tip.style.top = `${Math.max(4, top)}px`;
    tip.style.left = `${Math.max(4, Math.min(box.left, innerWidth - tip.offsetWidth - 8))}px`;
    anchor.setAttribute('aria-describedby', 'zr-tooltip');
  }
  function hideTip(anchor) {
    tip.hidden = true;
    if (anchor) anchor.removeAttribute('aria-describedby');
  }

  /**
   * A virtualised list (or grid, with `columns`): fixed-height rows, one focusable element at a
   * time (roving tabindex). Keys: arrows, Home/End, PageUp/PageDown; Enter calls `onEnter`.
   * `renderRow(index)` returns a row element; in a grid `renderCell(row, column)` returns cells.
   */
  class VirtualList {
    constructor(options) {
      this.options = options;
      this.rowHeight = options.rowHeight || 28;
      this.active = 0;
      this.column = 0;
      this.count = 0;
      this.spacer = h('div', { class: 'vl-spacer' });
      this.root = h(
        'div',
        {
          class: `vlist ${options.className || ''}`,
          role: options.columns ? 'grid' : 'listbox',
          'aria-label': options.label,
          'aria-rowcount': 0,
        },
        [options.header || null, this.spacer],
      );
      let pending = false;
      this.root.addEventListener('scroll', () => {
        if (pending) return;
        pending = true;
        requestAnimationFrame(() => {
          pending = false;
          this.render();
        });
      });
      this.root.addEventListener('keydown', (event) => this.key(event));
      // Focus that arrives by Tab (or a click) makes that row or cell the active one, like the arrows do.
      this.root.addEventListener('focusin', (event) => {
        const target = event.target.closest('[data-row]');
        if (!target) return;
        this.active = Number(target.dataset.row);
        if (target.dataset.col !== undefined) this.column = Number(target.dataset.col);
        options.onFocus?.(this.active, this.column, target);
      });
      this.root.addEventListener('click', (event) => {
        const target = event.target.closest('[data-row]');
        if (!target) return;
        this.moveTo(
          Number(target.dataset.row),
          target.dataset.col === undefined ? this.column : Number(target.dataset.col),
        );
        options.onEnter?.(this.active, this.column);
      });
    }

    setCount(count) {
      this.count = count;
      this.active = Math.min(this.active, Math.max(0, count - 1));
      this.spacer.style.height = `${count * this.rowHeight}px`;
      this.root.setAttribute('aria-rowcount', String(count));
      this.render();
    }

    render() {
      const focused = this.root.contains(document.activeElement);
      for (const row of [...this.spacer.children]) row.remove();
      const height = this.root.clientHeight || 600;
      // Rows start below the sticky header, which stays in view: row i is at the top when scrollTop = i × height.
      const scrolled = this.root.scrollTop;
      const first = Math.max(0, Math.floor(scrolled / this.rowHeight) - 5);
      const last = Math.min(this.count, Math.ceil((scrolled + height) / this.rowHeight) + 5);
      for (let index = first; index < last; index++) {
        const row = this.options.columns ? this.gridRow(index) : this.options.renderRow(index);
        row.style.top = `${index * this.rowHeight}px`;
        row.style.height = `${this.rowHeight}px`;
        row.classList.add('vl-row');
        if (!this.options.columns) {
          row.dataset.row = String(index);
          row.setAttribute('role', 'option');
          row.setAttribute('aria-selected', String(index === this.active));
          row.tabIndex = index === this.active ? 0 : -1;
        }
        this.spacer.append(row);
      }
      if (this.count > 0 && (first > this.active || last <= this.active)) {
        // Keep one tab stop even when the active row is scrolled away.
        this.root.tabIndex = 0;
      } else this.root.tabIndex = -1;
      if (focused) this.focusActive();
    }

    gridRow(index) {
      const row = h('div', { role: 'row', 'aria-rowindex': index + 1 }, [this.options.rowHeader(index)]);
      for (let column = 0; column < this.options.columns(); column++) {
        const cell = this.options.renderCell(index, column);
        cell.dataset.row = String(index);
        cell.dataset.col = String(column);
        cell.setAttribute('role', 'gridcell');
        cell.tabIndex = index === this.active && column === this.column ? 0 : -1;
        row.append(cell);
      }
      return row;
    }

    /** Height of the sticky header above the rows. */
    offset() {
      return this.options.header ? this.options.header.offsetHeight : 0;
    }

    activeElement() {
      const selector = this.options.columns
        ? `[data-row="${this.active}"][data-col="${this.column}"]`
        : `[data-row="${this.active}"]`;
      return this.spacer.querySelector(selector);
    }

    focusActive() {
      const element = this.activeElement();
      if (!element) return;
      if (document.activeElement !== element) element.focus({ preventScroll: true });
      else this.options.onFocus?.(this.active, this.column, element);
    }

    moveTo(index, column) {
      if (this.count === 0) return;
      this.active = Math.max(0, Math.min(this.count - 1, index));
      if (this.options.columns) this.column = Math.max(0, Math.min(this.options.columns() - 1, column));
      const top = this.active * this.rowHeight;
      const view = this.root.clientHeight - this.offset();
      const scrolled = this.root.scrollTop;
      if (top < scrolled) this.root.scrollTop = top;
      else if (top + this.rowHeight > scrolled + view) this.root.scrollTop = top + this.rowHeight - view;
      this.render();
      this.focusActive();
      this.options.onMove?.(this.active, this.column);
    }

    key(event) {
      const page = Math.max(1, Math.floor(this.root.clientHeight / this.rowHeight) - 1);
      const moves = {
        ArrowDown: [1, 0],
        ArrowUp: [-1, 0],
        PageDown: [page, 0],
        PageUp: [-page, 0],
        ArrowRight: [0, 1],
        ArrowLeft: [0, -1],
      };
      if (event.key in moves) {
        const [down, right] = moves[event.key];
        if (right !== 0 && !this.options.columns) return;
        this.moveTo(this.active + down, this.column + right);
      } else if (event.key === 'Home') this.moveTo(event.ctrlKey || !this.options.columns ? 0 : this.active, 0);
      else if (event.key === 'End')
        this.moveTo(
          event.ctrlKey || !this.options.columns ? this.count - 1 : this.active,
          this.options.columns ? this.options.columns() - 1 : 0,
        );
      else if (event.key === 'Enter' || event.key === ' ') this.options.onEnter?.(this.active, this.column);
      else return;
      event.preventDefault();
    }
  }

  /** Horizontal bars: `[{ label, value, note }]` scaled to `max`. */
  function bars(items, max, unit) {
    return h(
      'div',
      { class: 'bars' },
      items.map((item) =>
        h('div', { class: `bar-row ${item.className || ''}` }, [
          h('span', { class: 'bar-label', text: item.label }),
          h('span', { class: 'bar-track', role: 'img', 'aria-label': `${item.label}: ${fmt(item.value)} ${unit}` }, [
            h('span', {
              class: 'bar-fill',
              style: `width:${max > 0 ? Math.min(100, (item.value / max) * 100).toFixed(2) : 0}%`,
            }),
            item.mark === undefined
              ? null
              : h('span', { class: 'bar-mark', style: `left:${Math.min(100, (item.mark / max) * 100).toFixed(2)}%` }),
          ]),
          h('span', {
            class: 'bar-value',
            text: `${fmt(item.value)} ${unit}${item.share === undefined ? '' : ` (${(item.share * 100).toFixed(1)}% of the budget)`}${item.note ? ` ${item.note}` : ''}`,
          }),
        ]),
      ),
    );
  }

  return { h, clear, fmt, tip, showTip, hideTip, VirtualList, bars };
})();
