// Form controls of the builder: the unit form (used both as the template for new units and to
// edit the selected unit), steppers, selects built from the palette. Plain HTML controls, each
// at least 44 px tall, all reachable by keyboard.

import {h} from './builder-dom.js';

let uid = 0;
const nextId = (prefix) => `${prefix}-${++uid}`;

/** A labelled <select>. options: [{value, label, group?}] */
export function select({label, value, options, onChange, fk, disabled, empty}) {
  const id = nextId('sel');
  const el = h('select', {id, 'data-fk': fk, disabled});
  if (empty !== undefined) el.append(h('option', {value: ''}, empty));
  const groups = new Map();
  for (const opt of options) {
    const node = h('option', {value: opt.value}, opt.label);
    if (opt.group) {
      if (!groups.has(opt.group)) {
        const g = h('optgroup', {label: opt.group});
        groups.set(opt.group, g);
        el.append(g);
      }
      groups.get(opt.group).append(node);
    } else {
      el.append(node);
    }
  }
  el.value = value ?? '';
  el.addEventListener('change', () => onChange(el.value || null));
  return h('div', {class: 'b-field'}, h('label', {for: id}, label), el);
}

/** [−] n [+] with a live value; bounded. */
export function stepper({label, value, min, max, onChange, fk, disabled, suffix}) {
  const id = nextId('step');
  const out = h('output', {id, class: 'step-value', 'aria-live': 'polite'},
    suffix ? `${value} ${suffix}` : String(value));
  const dec = h('button',
    {type: 'button', class: 'icon-btn', 'aria-label': `${label}: one fewer`, 'data-fk': `${fk}-dec`,
      disabled: disabled || value <= min, onclick: () => onChange(Math.max(min, value - 1))}, '−');
  const inc = h('button',
    {type: 'button', class: 'icon-btn', 'aria-label': `${label}: one more`, 'data-fk': `${fk}-inc`,
      disabled: disabled || value >= max, onclick: () => onChange(Math.min(max, value + 1))}, '+');
  return h('div', {class: 'b-field stepper'}, h('span', {class: 'label', id: `${id}-l`}, label),
    h('div', {class: 'stepper-row', role: 'group', 'aria-labelledby': `${id}-l`}, dec, out, inc));
}

/** A row of toggle buttons acting as radios. */
export function segmented({label, value, options, onChange, fk, disabled}) {
  return h('div', {class: 'b-field'}, h('span', {class: 'label'}, label),
    h('div', {class: 'segmented', role: 'radiogroup', 'aria-label': label},
      options.map((opt) => h('button', {
        type: 'button', role: 'radio', class: `seg ${opt.cls || ''}`,
        'aria-checked': value === opt.value ? 'true' : 'false',
        'data-fk': `${fk}-${opt.value}`, disabled, onclick: () => onChange(opt.value),
      }, opt.label))));
}

/** Checkbox chips for badges and unit markers. */
export function chips({label, values, options, onChange, fk, disabled}) {
  if (!options.length) return null;
  return h('fieldset', {class: 'b-field chips-field'}, h('legend', {}, label),
    h('div', {class: 'check-chips'}, options.map((opt) => {
      const id = nextId('chk');
      const input = h('input',
        {type: 'checkbox', id, 'data-fk': `${fk}-${opt.value}`, disabled, checked: values.includes(opt.value)});
      input.addEventListener('change', () => {
        const next = values.filter((v) => v !== opt.value);
        if (input.checked) next.push(opt.value);
        onChange(next);
      });
      return h('label', {class: 'check-chip', for: id, title: opt.title || ''}, input, h('span', {}, opt.label));
    })));
}

const CLASS_LABELS = {infantry: 'Infantry units', armor: 'Armor and vehicles', artillery: 'Artillery'};

export function unitTypeOptions(content) {
  return content.p.units.map((u) => ({value: u.id, label: u.name, group: CLASS_LABELS[u.unit_class] || u.unit_class}))
    .sort((a, b) => a.group.localeCompare(b.group) || a.label.localeCompare(b.label));
}

/** Keep figures consistent after the type, nation, badges or start strength changed. */
export function settleFigures(content, unit, wasFull) {
  const choices = content.startChoices(unit);
  if (unit.start_figures && !choices.includes(unit.start_figures)) unit.start_figures = null;
  const start = content.startFigures(unit);
  unit.figures = wasFull ? start : Math.max(1, Math.min(unit.figures || start, start));
}

const openMore = new Set();

/** Fields of a unit (for the new-unit template or the selected unit): side, type and figures
 * first; nation, starting strength, movement and badges folded under "More" (kept open across
 * re-renders once opened). */
export function unitFields(content, unit, onChange, {fk, disabled = false, withMoved = true} = {}) {
  const change = (mutate) => {
    const wasFull = unit.figures >= content.startFigures(unit);
    mutate(unit);
    settleFigures(content, unit, wasFull);
    onChange(unit);
  };
  const start = content.startFigures(unit);
  const badgeOptions = content.badgesFor(unit.type).map((b) => ({value: b.id, label: b.name, title: b.summary}));
  const startChoices = content.startChoices(unit);
  const standard = content.standardFigures({...unit, start_figures: null});
  const extras = [
    unit.nation ? content.nations.get(unit.nation)?.name || unit.nation : null,
    start !== standard ? `starts with ${start}` : null,
    unit.moved ? `moved ${unit.moved}` : null,
    ...unit.badges.map((b) => content.name(b)),
  ].filter(Boolean);
  const more = h('details', {class: 'more', open: openMore.has(fk)},
    h('summary', {'data-fk': `${fk}-more`}, 'Nation, badges, strength',
      extras.length ? h('span', {class: 'more-now'}, `: ${extras.join(', ')}`) : null),
    h('div', {class: 'b-form'},
      select({label: 'Nation', value: unit.nation, empty: 'Not specified', fk: `${fk}-nation`, disabled,
        options: content.p.nations.map((n) => ({value: n.code, label: n.name})),
        onChange: (v) => change((u) => { u.nation = v; })}),
      h('div', {class: 'b-row'},
        startChoices.length > 1 ? select({label: 'Figures at the start', value: String(start),
          fk: `${fk}-start`, disabled,
          options: startChoices.map((n) => ({value: String(n), label: n === standard ? `${n} (standard)` : String(n)})),
          onChange: (v) => change((u) => {
            u.start_figures = Number(v) === content.standardFigures({...u,
              start_figures: null}) ? null : Number(v);
          })}) : null,
        withMoved ? stepper({label: 'Hexes moved this turn', value: unit.moved || 0, min: 0,
          max: content.limits.max_moved, fk: `${fk}-moved`, disabled,
          onChange: (v) => { unit.moved = v; onChange(unit); }}) : null),
      chips({label: 'Badges and markers', values: unit.badges, options: badgeOptions, fk: `${fk}-badges`, disabled,
        onChange: (v) => change((u) => { u.badges = v; })})));
  more.addEventListener('toggle', () => { if (more.open) openMore.add(fk); else openMore.delete(fk); });
  return [
    segmented({label: 'Side', value: unit.side, fk: `${fk}-side`, disabled,
      options: [
        {value: 'allies', label: 'Allies', cls: 'side-allies'},
        {value: 'axis', label: 'Axis', cls: 'side-axis'},
      ],
      onChange: (v) => change((u) => { u.side = v; })}),
    h('div', {class: 'b-row tight'},
      select({label: 'Unit', value: unit.type, options: unitTypeOptions(content), fk: `${fk}-type`, disabled,
        onChange: (v) => change((u) => {
          u.type = v;
          const allowed = new Set(content.badgesFor(v).map((b) => b.id));
          u.badges = u.badges.filter((b) => allowed.has(b));
        })}),
      stepper({label: `Figures (of ${start})`, value: unit.figures ?? start, min: 1, max: start,
        fk: `${fk}-figures`, disabled,
        onChange: (v) => { unit.figures = v; onChange(unit); }})),
    more,
  ];
}
