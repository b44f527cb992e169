// A tool's input JSON Schema as a form a person reads: one labelled control per property (text,
// number, list, checkbox, nested group), with whether it is required, its type and its limits in
// words. The form submits nowhere (the page's policy has `form-action 'none'`).
// biome-ignore lint/correctness/noUnusedVariables: used by client.js, which is inlined after this file.
var ZRSchema = (() => {
  const { h } = ZR;
  let counter = 0;

  function typeOf(schema) {
    if (Array.isArray(schema.enum)) return 'enum';
    if (schema.const !== undefined) return 'const';
    const type = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null')[0] : schema.type;
    if (type) return type;
    if (schema.properties) return 'object';
    if (schema.anyOf || schema.oneOf) return 'union';
    return 'any';
  }

  const show = (value) => (typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value));

  /** The limits of a schema in words: "1 to 365", "format url", "default 'c'". */
  function limits(schema) {
    const words = [];
    const range = (min, max, unit) => {
      const of = (n) => (unit === '' ? '' : ` ${unit}${n === 1 ? '' : 's'}`);
      if (min !== undefined && max !== undefined) words.push(`${min} to ${max}${of(max)}`);
      else if (min !== undefined) words.push(`at least ${min}${of(min)}`);
      else if (max !== undefined) words.push(`at most ${max}${of(max)}`);
    };
    range(schema.minimum, schema.maximum, '');
    if (schema.exclusiveMinimum !== undefined) words.push(`more than ${schema.exclusiveMinimum}`);
    if (schema.exclusiveMaximum !== undefined) words.push(`less than ${schema.exclusiveMaximum}`);
    range(schema.minLength, schema.maxLength, 'character');
    range(schema.minItems, schema.maxItems, 'item');
    if (schema.multipleOf !== undefined) words.push(`multiple of ${schema.multipleOf}`);
    if (schema.format) words.push(`format ${schema.format}`);
    if (schema.pattern) words.push(`matches /${schema.pattern}/`);
    if (schema.default !== undefined) words.push(`default ${show(schema.default)}`);
    if (Array.isArray(schema.type) && schema.type.includes('null')) words.push('may be null');
    return words.join(' · ');
  }

  const INPUT_TYPES = { email: 'email', uri: 'url', url: 'url', date: 'date', 'date-time': 'text' };

  function control(schema, type, id, required) {
    const common = { id, name: id, 'aria-required': required ? 'true' : 'false' };
    if (type === 'enum')
      return h(
        'select',
        common,
        schema.enum.map((value) =>
          h('option', { text: show(value), selected: schema.default === value ? true : undefined }),
        ),
      );
    if (type === 'boolean') return h('input', { ...common, type: 'checkbox', checked: schema.default === true });
    if (type === 'number' || type === 'integer')
      return h('input', {
        ...common,
        type: 'number',
        min: schema.minimum,
        max: schema.maximum,
        step: type === 'integer' ? 1 : 'any',
        placeholder: schema.default === undefined ? type : String(schema.default),
      });
    if (type === 'const') return h('input', { ...common, type: 'text', readonly: true, value: show(schema.const) });
    return h('input', {
      ...common,
      type: INPUT_TYPES[schema.format] || 'text',
      minlength: schema.minLength,
      maxlength: schema.maxLength,
      placeholder: schema.default === undefined ? (schema.format ?? type) : String(schema.default),
    });
  }

  function field(name, schema, required, depth) {
    const type = typeOf(schema);
    const id = `zr-field-${++counter}`;
    const meta = h('span', { class: 'field-meta' }, [
      h('span', {
        class: `field-type type-${type}`,
        text: type === 'array' ? `list of ${typeOf(schema.items || {})}` : type,
      }),
      h('span', { class: required ? 'field-required' : 'field-optional', text: required ? 'required' : 'optional' }),
      limits(schema) ? h('span', { class: 'field-limits', text: limits(schema) }) : null,
    ]);
    const description = schema.description ? h('p', { class: 'field-description', text: schema.description }) : null;
    if (depth < 6 && (type === 'object' || type === 'array' || type === 'union')) {
      const inner =
        type === 'object'
          ? fields(schema, depth + 1)
          : type === 'array'
            ? [field('item', schema.items || {}, true, depth + 1)]
            : (schema.anyOf || schema.oneOf).map((option, i) => field(`option ${i + 1}`, option, false, depth + 1));
      return h('fieldset', { class: `field field-${type}`, 'data-field': name }, [
        h('legend', {}, [h('span', { class: 'field-name', text: name }), ' ', meta]),
        description,
        ...inner,
      ]);
    }
    return h('div', { class: 'field', 'data-field': name }, [
      h('label', { for: id }, [h('span', { class: 'field-name', text: name }), ' ', meta]),
      control(schema, type, id, required),
      description,
    ]);
  }

  function fields(schema, depth) {
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const entries = Object.entries(schema.properties || {});
    if (entries.length === 0) return [h('p', { class: 'muted', text: 'No input.' })];
    return entries.map(([name, property]) => field(name, property || {}, required.has(name), depth));
  }

  /** The form of a tool's input schema. */
  function form(schema, label) {
    return h('form', { class: 'schema-form', 'aria-label': label, on: { submit: (e) => e.preventDefault() } }, [
      ...fields(schema || {}, 0),
      schema && schema.additionalProperties === false
        ? h('p', { class: 'muted', text: 'No other properties are accepted.' })
        : null,
    ]);
  }

  return { form };
})();
