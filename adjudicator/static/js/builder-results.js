// The ruling panel: legality and every reason, dice with the breakdown (each step linked to its
// rule page), the faces that hit, exact odds as small inline-SVG bar charts, line of sight,
// retreat options per number of flags, take ground / overrun, and re-supply.

import {h, s, pct, signed} from './builder-dom.js';

// -- die faces (our own little drawings) ------------------------------------------------------
const FACE_DRAW = {
  infantry: () => [s('path', {d: 'M4 13a6 6 0 0 1 12 0z'}),
    s('rect', {x: 2.5, y: 12.5, width: 15, height: 2.2, rx: 1})],
  armor: () => [s('rect', {x: 3, y: 9, width: 14, height: 5, rx: 1.5}),
    s('rect', {x: 6, y: 6, width: 6, height: 3.5, rx: 1}),
    s('rect', {x: 11.5, y: 6.9, width: 6.5, height: 1.4}), s('rect', {x: 2.5, y: 14, width: 15, height: 2.5, rx: 1.2})],
  grenade: () => [s('circle', {cx: 9, cy: 12, r: 5}), s('rect', {x: 7.5, y: 4.5, width: 3, height: 3}),
    s('path', {d: 'M10.5 5.5l4-2 .8 1.4-4 2z'})],
  star: () => [s('path', {d: 'M10 2.5l2.2 4.9 5.3.5-4 3.6 1.2 5.2L10 14l-4.7 2.7 1.2-5.2-4-3.6 5.3-.5z'})],
  flag: () => [s('rect', {x: 4, y: 3, width: 1.6, height: 14}), s('path', {d: 'M5.6 3.5h10l-2.6 3.2 2.6 3.3h-10z'})],
};

export function faceIcon(face) {
  const draw = FACE_DRAW[face];
  return s('svg', {class: `face face-${face}`, viewBox: '0 0 20 20', width: 20, height: 20, 'aria-hidden': 'true'},
    ...(draw ? draw() : [s('circle', {cx: 10, cy: 10, r: 6})]));
}

function dieIcons(n) {
  const shown = Math.min(n, 12);
  return h('span', {class: 'dice-row', 'aria-hidden': 'true'},
    Array.from({length: shown}, () => s('svg', {class: 'die', viewBox: '0 0 20 20', width: 22, height: 22},
      s('rect', {x: 1.5, y: 1.5, width: 17, height: 17, rx: 4}), s('circle', {cx: 10, cy: 10, r: 2.2}))));
}

// -- charts -------------------------------------------------------------------------------------
/** A small bar chart of a probability distribution (index = count). */
export function barChart(values, {label, caption, unit, accent = 'bar', exact = null}) {
  const n = values.length;
  const bw = 34;
  const gap = 8;
  const top = 16;
  const height = 76;
  const width = Math.max(n * (bw + gap) + gap, 96);
  const max = Math.max(...values, 1e-9);
  const exactText = (i) => (exact?.[i] ? ` (${exact[i]})` : '');
  const said = values.map((v, i) => `${i} ${unit}${i === 1 ? '' : 's'} ${pct(v)}${exactText(i)}`).join(', ');
  const svg = s('svg', {class: 'chart', viewBox: `0 0 ${width} ${top + height + 18}`, width, height: top + height + 18,
    role: 'img', 'aria-label': `${label}: ${said}`});
  values.forEach((v, i) => {
    const bh = Math.max(v > 0 ? 1.5 : 0, (v / max) * height);
    const x = gap + i * (bw + gap);
    svg.append(
      s('rect', {class: `chart-bar ${accent}`, x, y: top + height - bh, width: bw, height: bh, rx: 2.5},
        s('title', {}, `${i} ${unit}${i === 1 ? '' : 's'}: ${pct(v)}${exact?.[i] ? ` = ${exact[i]}` : ''}`)),
      s('text', {class: 'chart-value', x: x + bw / 2, y: top + height - bh - 4, 'text-anchor': 'middle'}, pct(v)),
      s('text', {class: 'chart-axis', x: x + bw / 2, y: top + height + 14, 'text-anchor': 'middle'}, String(i)),
    );
  });
  svg.append(s('line', {class: 'chart-base', x1: 0, x2: width, y1: top + height, y2: top + height}));
  return h('figure', {class: 'chart-figure'}, h('figcaption', {}, caption || label), svg);
}

// -- helpers ------------------------------------------------------------------------------------
function ruleLink(content, id, text) {
  const url = id ? content.ruleUrl(id) : null;
  const label = text || (id ? content.name(id) : '');
  return url ? h('a', {href: url, class: 'rule-link'}, label) : h('span', {}, label);
}

function reasonItem(content, reason) {
  if (typeof reason === 'string') return h('li', {}, reason);
  const text = reason.text || reason.message || reason.reason || '';
  return h('li', {}, text,
    reason.rule ? [' ', h('span', {class: 'cite'}, '(', ruleLink(content, reason.rule), ')')] : null);
}

/** A list of {rule, text} steps, each citing its rule page. */
function reasons(content, list, cls = 'reasons') {
  if (!Array.isArray(list) || !list.length) return null;
  return h('ul', {class: cls}, list.map((x) => reasonItem(content, x)));
}

/** "3/8" -> "5/8" for the complement; null when not a fraction. */
function complement(exact) {
  const m = /^(\d+)\/(\d+)$/.exec(exact || '');
  return m ? `${Number(m[2]) - Number(m[1])}/${m[2]}` : null;
}

function exactly(value, exact) {
  return exact && exact !== '0/1' && exact !== '1/1' ? [value, h('span', {class: 'exact'}, ` (${exact})`)] : value;
}

/** One part of the ruling; `tab` is the tab it shows under (dice, los, retreat, odds, after). */
function section(title, tab, ...children) {
  return h('section', {class: 'r-section', 'data-tab': tab}, h('h3', {}, title), ...children);
}

function errorBox(error, context) {
  return h('div', {class: 'r-error', role: 'alert'},
    h('strong', {}, context ? `${context}: ` : ''), error.message,
    error.field ? h('span', {class: 'r-field'}, ` (field ${error.field})`) : null);
}

function unitLabel(content, unit, board) {
  if (!unit) return '';
  const hex = board.hexes.find((x) => x.row === unit.row && x.col === unit.col);
  return `${content.sideName(unit.side)} ${content.unitName(unit)} at ${hex ? hex.label : `${unit.row},${unit.col}`}`;
}

export function hexLabel(board, p) {
  const hex = board.hexes.find((x) => x.row === p.row && x.col === p.col);
  return hex ? hex.label : `(${p.row},${p.col})`;
}

// -- the panel ----------------------------------------------------------------------------------
/**
 * Render the ruling. `r` holds the latest API answers: {battle, los, retreat, resupply} each
 * {ok, data} or {ok: false, error}, or undefined while not asked.
 */
export function renderRuling(root, {r, state, content, board, attacker, target, supplier, onFlags, onHighlight,
  pending}) {
  const out = [];
  const verdict = h('div', {class: 'r-status', id: 'verdict', 'aria-live': 'polite'});
  out.push(verdict);

  if (!attacker && target) {
    verdict.classList.add('idle');
    verdict.append(h('p', {class: 'r-verdict'}, 'Pick an attacker'),
      h('p', {class: 'r-sub'},
        `Below: how ${unitLabel(content, target, board)} retreats. Tap a unit, then Attacker, to see the battle.`));
    out.push(renderRetreat(r.retreat, {state, content, board, target, onFlags, onHighlight}));
  } else if (!attacker || !target) {
    verdict.classList.add('idle');
    verdict.append(h('p', {class: 'r-verdict'}, 'Pick an attacker and a target'),
      h('p', {class: 'r-sub'},
        'Tap a hex to place a unit. The first unit placed attacks the first one of the other side; '
        + 'tap a unit to change its role.'));
  } else if (r.battle && !r.battle.ok) {
    verdict.classList.add('error');
    verdict.append(h('p', {class: 'r-verdict'}, 'No ruling for this board'), errorBox(r.battle.error));
  } else if (r.battle?.ok) {
    renderBattle(out, verdict, r, {state, content, board, attacker, target, onFlags, onHighlight});
  } else {
    verdict.classList.add('idle');
    verdict.append(h('p', {class: 'r-verdict'}, 'Working it out…'));
  }
  if (pending) verdict.classList.add('pending');

  if (supplier) out.push(renderResupply(r.resupply, {content, board, state, supplier}));
  root.replaceChildren(...out);
}

function renderBattle(out, verdict, r, {state, content, board, attacker, target, onFlags, onHighlight}) {
  const b = r.battle.data;
  const dice = Number(b.dice) || 0;
  verdict.classList.add(b.legal ? 'legal' : 'illegal');
  verdict.dataset.legal = b.legal ? 'true' : 'false';
  const range = b.distance != null ? `range ${b.distance}` : '';
  const kind = b.card_attack ? 'the card attacks by itself' : b.close_assault ? 'close assault' : 'ranged fire';
  const losText = !b.line_of_sight ? '' : b.line_of_sight.needed === false ? 'no line of sight needed'
    : b.line_of_sight.clear ? 'line of sight clear' : 'no line of sight';
  verdict.append(
    h('p', {class: 'r-verdict'},
      b.legal ? [dieIcons(dice), ` Roll ${dice} ${dice === 1 ? 'die' : 'dice'}`] : 'Battle not allowed'),
    h('p', {class: 'r-sub'}, `${b.card_attack ? content.name(b.card) : unitLabel(content, attacker, board)} → ${
      unitLabel(content, target, board)}`),
    h('p', {class: 'r-meta'},
      [range, kind, losText].filter(Boolean).map((t, i) => [i ? ' · ' : '',
        h('span', {class: t === 'no line of sight' ? 'bad' : ''}, t)])),
  );

  if (!b.legal && b.why_not?.length) {
    out.push(section('Why not', 'dice', h('ul', {class: 'why-not'}, b.why_not.map((x) => reasonItem(content, x)))));
  }

  if (b.breakdown?.length) {
    const rows = b.breakdown.map((step, i) => h('tr', {},
      h('td', {class: 'step-dice'}, step.dice == null ? '' : i === 0 ? String(step.dice) : signed(step.dice)),
      h('td', {}, step.text || '', ' ', step.rule ? h('span', {class: 'cite'}, ruleLink(content, step.rule)) : null)));
    rows.push(h('tr', {class: 'total'}, h('td', {class: 'step-dice'}, String(dice)),
      h('td', {}, `${dice === 1 ? 'die' : 'dice'} in all`)));
    out.push(section(b.legal ? 'How many dice' : 'Dice it would roll', 'dice', h('table', {class: 'breakdown'},
      h('caption', {class: 'visually-hidden'}, 'Battle dice breakdown'),
      h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Dice'), h('th', {scope: 'col'}, 'Why'))),
      h('tbody', {}, rows))));
  }

  // A card that changes no number here (Ambush: who battles first) still gets its word.
  const cited = new Set([...(b.breakdown || []), ...(b.why_not || []), ...(b.notes || [])]
    .map((x) => x?.rule).filter(Boolean));
  const cardNotes = [state.card, state.combat_card].filter((id) => id && !cited.has(id)).map((id) => {
    const card = content.p.command_cards.find((c) => c.id === id) || content.p.combat_cards.find((c) => c.id === id);
    return h('li', {}, h('strong', {}, `${content.name(id)}: `), card?.summary || '',
      ' It changes none of the numbers of this battle. ',
      h('span', {class: 'cite'}, ruleLink(content, id)));
  });
  if (cardNotes.length) out.push(section('Cards played', 'dice', h('ul', {class: 'reasons'}, cardNotes)));

  if (b.hit_symbols?.length) {
    out.push(section('Hits on', 'dice',
      h('ul', {class: 'faces'},
        b.hit_symbols.map((f) => h('li', {class: 'face-chip'}, faceIcon(f), content.faceName(f)))),
      reasons(content, b.hit_reasons, 'reasons small'),
      b.flags_ignored ? h('p', {class: 'r-note'},
        `The target may ignore ${b.flags_ignored === 'all' ? 'every' : b.flags_ignored} `
        + `flag${b.flags_ignored === 1 ? '' : 's'}.`) : null));
  }

  const p = b.probabilities;
  if (b.legal && p && Array.isArray(p.hits)) {
    const atLeastOne = 1 - (p.hits[0] ?? 0);
    const facts = h('dl', {class: 'odds-facts'},
      h('dt', {}, 'Expected hits'),
      h('dd', {}, exactly(typeof p.expected_hits === 'number' ? String(Math.round(p.expected_hits * 100) / 100) : '–',
        p.expected_hits_exact)),
      h('dt', {}, 'At least one hit'), h('dd', {}, exactly(pct(atLeastOne), complement(p.hits_exact?.[0]))),
      h('dt', {}, 'Target eliminated'), h('dd', {}, exactly(pct(p.eliminate), p.eliminate_exact)),
      typeof p.eliminate_after_retreat === 'number' && p.eliminate_after_retreat !== p.eliminate
        ? [h('dt', {}, 'Eliminated, counting retreat losses'),
          h('dd', {}, exactly(pct(p.eliminate_after_retreat), p.eliminate_after_retreat_exact))] : null);
    const charts = h('div', {class: 'charts'},
      barChart(p.hits, {label: 'Chance of each number of hits', caption: 'Hits', unit: 'hit', exact: p.hits_exact}));
    if (Array.isArray(p.flags)) charts.append(barChart(p.flags,
      {label: 'Chance of each number of flags', caption: 'Flags', unit: 'flag', accent: 'bar flag',
        exact: p.flags_exact}));
    out.push(section('Odds', 'odds', facts, charts, reasons(content, b.aftermath_notes, 'reasons small')));
  }

  if (r.los?.ok) out.push(renderLos(r.los.data, {content, board}));
  else if (r.los && !r.los.ok && !r.los.aborted) out.push(section('Line of sight', 'los', errorBox(r.los.error)));

  out.push(renderRetreat(r.retreat,
    {state, content, board, target, onFlags, onHighlight, perFlag: b.retreat?.per_flag, dice: b.legal ? dice : 0}));

  const after = [];
  if (b.take_ground != null) {
    after.push(h('li', {}, h('strong', {}, b.take_ground ? 'Take ground: yes. ' : 'Take ground: no. '),
      b.take_ground_reasons?.length ? b.take_ground_reasons.map((x) => [x.text, ' ',
        x.rule ? h('span', {class: 'cite'}, ruleLink(content, x.rule)) : null,
        ' ']) : ruleLink(content, 'take_ground', 'The take-ground rule')));
  }
  if (b.overrun != null) {
    after.push(h('li', {}, h('strong', {}, b.overrun ? 'Armor overrun: yes. ' : 'Armor overrun: no. '),
      b.overrun_reasons?.length ? b.overrun_reasons.map((x) => [x.text, ' ',
        x.rule ? h('span', {class: 'cite'}, ruleLink(content, x.rule)) : null,
        ' ']) : ruleLink(content, 'armor_overrun', 'The armor overrun rule')));
  }
  // Battles this one opens: British battle back, French second close assault, a card's second battle.
  const kinds = {battle_back: 'Battle back', second_close_assault: 'Second close assault',
    second_battle: 'Second battle'};
  for (const f of b.follow_ups || []) {
    after.push(h('li', {class: 'follow-up'}, h('strong', {}, `${kinds[f.kind] || 'Follow-up'}: `), f.text || '',
      f.chance_exact ? ` (chance it arises: ${f.chance_exact})` : '', ' ',
      f.rule ? h('span', {class: 'cite'}, ruleLink(content, f.rule)) : null));
  }
  if (after.length) out.push(section('After the battle', 'after', h('ul', {class: 'after'}, after)));
  if (b.notes?.length) out.push(section('Notes', 'dice', reasons(content, b.notes)));
}

function renderLos(los, {content, board}) {
  const items = [h('p', {class: los.clear ? 'good' : 'bad'},
    los.clear ? 'Clear: nothing between them blocks the line.' : 'Blocked.')];
  if (los.blocked_by?.length) {
    items.push(h('ul', {class: 'blockers'}, los.blocked_by.map((x) => h('li', {},
      h('strong', {}, hexLabel(board, x)), ': ',
      x.reason_text || (content.kinds[x.reason] ? ruleLink(content, x.reason) : x.reason || ''),
      x.rule ? [' ', h('span', {class: 'cite'}, ruleLink(content, x.rule))] : null))));
  }
  if (los.crossed?.length) items.push(h('p', {class: 'r-note'},
    `The line crosses ${los.crossed.map((x) => hexLabel(board, x)).join(', ')}.`));
  if (los.edges?.length) items.push(h('p', {class: 'r-note'},
    `It runs along ${los.edges.length} hex edge${los.edges.length === 1 ? '' : 's'}; `
    + 'an edge blocks only when the hexes on both sides block.'));
  // A blocker is said once, in the list above: reasons that only repeat it are left out.
  const said = (los.blocked_by || []).map((x) => x.reason).filter(Boolean);
  items.push(reasons(content,
    (los.reasons || []).filter((x) => !said.some((reason) => (x.text || '').includes(reason))), 'reasons small'));
  items.push(h('p', {class: 'r-note'}, ruleLink(content, 'line_of_sight', 'The line-of-sight rule')));
  return section('Line of sight', 'los', ...items);
}

function renderRetreat(result, {state, content, board, target, onFlags, onHighlight, perFlag, dice}) {
  // No more flags than dice rolled: each die shows one face.
  const max = dice ? Math.min(dice, content.limits.max_flags) : content.limits.max_flags;
  const picker = h('div', {class: 'segmented', role: 'radiogroup', 'aria-label': 'Flags rolled'},
    Array.from({length: max}, (_, i) => i + 1).map((n) => h('button', {
      type: 'button', role: 'radio', class: 'seg', 'aria-checked': state.flags === n ? 'true' : 'false',
      'data-fk': `flags-${n}`,
      onclick: () => onFlags(n), text: `${n} flag${n === 1 ? '' : 's'}`,
    })));
  const parts = [picker];
  if (!result) {
    parts.push(h('p', {class: 'r-note'}, 'Working it out…'));
  } else if (!result.ok) {
    if (!result.aborted) parts.push(errorBox(result.error));
  } else {
    const d = result.data;
    const facts = [];
    const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
    const allow = d.flag_allowance || {};
    if (allow.must_ignore_all) facts.push('must ignore every flag');
    else if (allow.may_ignore_all) facts.push('may ignore every flag');
    else if (allow.must_ignore) facts.push(`must ignore ${plural(allow.must_ignore, 'flag')}`);
    else if (allow.may_ignore) facts.push(`may ignore ${plural(allow.may_ignore, 'flag')}`);
    else if (d.flags_ignored) facts.push(`${plural(d.flags_ignored, 'flag')} ignored`);
    if (d.moves_required) facts.push(`must go back ${d.moves_required} hex${d.moves_required === 1 ? '' : 'es'}`);
    else if (d.moves_required === 0 && !allow.may_ignore && !allow.may_ignore_all) facts.push('stays put');
    if (perFlag && perFlag !== 1) facts.push(`${perFlag} hexes per flag`);
    parts.push(h('p', {class: 'r-meta'},
      `${unitLabel(content, target, board)}: ${facts.join(' · ') || 'no retreat needed'}`));
    if (d.eliminated) parts.push(h('p', {class: 'bad strong'},
      'The target is eliminated: it has nowhere to go and too few figures.'));
    else if (d.min_figures_lost) parts.push(h('p', {class: 'bad'},
      `At least ${d.min_figures_lost} figure${d.min_figures_lost === 1 ? '' : 's'} lost.`));
    parts.push(reasons(content, d.breakdown, 'reasons small'));
    if (d.options?.length) {
      parts.push(h('ol', {class: 'retreat-options'}, d.options.map((opt, i) => h('li', {},
        h('button', {
          type: 'button', class: 'option', 'data-fk': `retreat-${i}`,
          onmouseenter: () => onHighlight(i), onfocus: () => onHighlight(i), onmouseleave: () => onHighlight(null),
          onblur: () => onHighlight(null),
          onclick: () => onHighlight(i),
        },
        h('span', {}, optionText(board, opt, target),
          opt.path?.length > 1 ? h('span', {class: 'muted'},
            ` via ${opt.path.slice(0, -1).map((x) => hexLabel(board, x)).join(', ')}`) : ''),
        h('span', {class: opt.figures_lost ? 'loss bad' : 'loss'},
          opt.eliminated ? 'eliminated'
            : opt.figures_lost ? `−${opt.figures_lost} figure${opt.figures_lost === 1 ? '' : 's'}` : 'no loss'))))));
      if (d.options_total > d.options.length) parts.push(h('p', {class: 'r-note'},
        `…and ${d.options_total - d.options.length} more ways with the same ends.`));
    } else if (d.moves_required) {
      parts.push(h('p', {class: 'r-note'}, 'No hex to retreat to.'));
    }
  }
  parts.push(h('p', {class: 'r-note'}, ruleLink(content, 'retreat', 'The retreat rule')));
  return section('Retreat', 'retreat', ...parts);
}

function optionText(board, opt, target) {
  const ignored = opt.flags_ignored ? `Ignore ${opt.flags_ignored} flag${opt.flags_ignored === 1 ? '' : 's'}` : '';
  const stays = target && opt.end.row === target.row && opt.end.col === target.col && !opt.path?.length;
  if (stays) return ignored ? `${ignored}, stay on ${hexLabel(board, opt.end)}` : `Stay on ${hexLabel(board, opt.end)}`;
  return ignored ? `${ignored}, back to ${hexLabel(board, opt.end)}` : `Back to ${hexLabel(board, opt.end)}`;
}

function renderResupply(result, {content, board, state, supplier}) {
  const parts = [h('p', {class: 'r-meta'}, `${unitLabel(content, supplier, board)} re-supplying adjacent units`)];
  if (!result) parts.push(h('p', {class: 'r-note'}, 'Working it out…'));
  else if (!result.ok) { if (!result.aborted) parts.push(errorBox(result.error)); } else {
    const d = result.data;
    if (!d.legal) parts.push(h('p', {class: 'bad'}, 'Not allowed now.'),
      h('ul', {class: 'why-not'}, (d.why_not || []).map((x) => reasonItem(content, x))));
    if (d.targets?.length) {
      parts.push(h('ul', {class: 'resupply-targets'}, d.targets.map((t) => {
        const unit = state.units.find((u) => u.id === t.unit);
        return h('li', {}, `${unitLabel(content, unit, board) || t.unit}: up to +${t.max_figures}`);
      })));
    } else if (d.legal) {
      parts.push(h('p', {class: 'r-note'}, 'No weakened friendly unit is adjacent.'));
    }
    if (d.supplier_figures != null) parts.push(h('p', {class: 'r-note'},
      `The supplier has ${d.supplier_figures} figure${d.supplier_figures === 1 ? '' : 's'} to hand over.`));
  }
  parts.push(h('p', {class: 'r-note'}, ruleLink(content, 'resupply', 'The re-supply rule')));
  return section('Re-supply', 'after', ...parts);
}
