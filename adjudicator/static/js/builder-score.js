// The score strip: each side's medals, of how many it needs, from /api/v1/score, shown under the
// board whenever the situation has a scenario or losses; it is asked again after every change (a
// unit eliminated, moved or retreated). A tap on the strip lists every medal with the rule it comes
// from. Objective hexes (their medal kind, the side that may gain them, the side holding them) and
// exit hexes are drawn on the board. Medals gained for good are carried into the situation as the
// objectives' `held_by`, so a permanent medal stays won after its unit moves on.

import {postJSON, debounced} from './builder-api.js';
import {h, s, fill} from './builder-dom.js';

const SIDE_NAMES = {allies: 'Allies', axis: 'Axis'};
const SIDES = ['allies', 'axis'];

/** A short mark for a victory entry drawn on its hexes: the initials of its name without
 * "Medal" and "Objective" ("Temporary Majority Medal Objective" → "TM"). */
export function kindMark(name) {
  return name.replace(/[()]/g, ' ').split(/\s+/).filter((w) => w && !/^(medal|objective|to)$/i.test(w))
    .map((w) => w[0].toUpperCase()).join('') || '★';
}

export class ScoreStrip {
  /** `element`: the strip's box in the page; `onHeld`: the situation changed (a medal gained for
   * good was written into it); `onAnswer`: a new answer arrived (redraw the board's marks). */
  constructor({url, content, element, onHeld, onAnswer}) {
    this.url = url;
    this.content = content;
    this.el = element;
    this.onHeld = onHeld;
    this.onAnswer = onAnswer;
    this.answer = null;
    this.asked = null;
    this.open = false;
    this.request = debounced(async (signal, doc, state) => {
      const answer = await postJSON(this.url, doc, signal);
      if (signal.aborted || answer.aborted) return;
      this.answer = answer;
      this.render();
      if (answer.ok && this.carryHeld(state)) this.onHeld();
      this.onAnswer();
    }, 200);
  }

  /** Whether the situation has anything to score. */
  static shown(state) {
    return Boolean(state.scenario || state.casualties?.length || state.exited?.length);
  }

  /** Ask for the score of `doc` (the situation document), unless it was the last one asked. */
  update(state, doc) {
    if (!ScoreStrip.shown(state)) {
      this.answer = null;
      this.asked = null;
      this.el.hidden = true;
      return;
    }
    const asked = JSON.stringify(doc);
    if (asked === this.asked) return;
    this.asked = asked;
    this.pending = true;
    this.render();
    this.request(doc, state);
  }

  /** The objectives' `held_by` as the answer says they stand now; true when one changed. */
  carryHeld(state) {
    const objectives = state.scenario?.objectives;
    if (!Array.isArray(objectives)) return false;
    let changed = false;
    for (const found of this.answer.data.objectives || []) {
      for (const hex of found.hexes) {
        const mine = objectives.find((o) => o.row === hex.row && o.col === hex.col && o.kind === found.kind);
        if (mine && (mine.held_by ?? null) !== found.held_by) {
          if (found.held_by) mine.held_by = found.held_by;
          else delete mine.held_by;
          changed = true;
        }
      }
    }
    return changed;
  }

  render() {
    const a = this.answer;
    this.el.hidden = !a && !this.pending;
    if (!a) return;
    if (!a.ok) {
      fill(this.el, h('p', {class: 'score-error', role: 'alert'}, `Score: ${a.error.message}`));
      return;
    }
    this.pending = false;
    const d = a.data;
    const side = (x) => h('span', {class: `score-side side-${x}${d.winner === x ? ' won' : ''}`, 'data-side': x},
      h('span', {class: 'score-name'}, SIDE_NAMES[x]), ' ',
      h('strong', {class: 'score-medals'}, String(d.medals[x])), h('span', {class: 'score-of'}, `/${d.needed[x]}`));
    const verdict = d.winner ? h('span', {class: 'score-verdict'}, `${SIDE_NAMES[d.winner]} win`) : null;
    const strip = h('button', {type: 'button', class: 'score-strip', id: 'score-strip', 'aria-expanded': String(this.open),
      'aria-controls': 'score-details', 'data-fk': 'score-strip',
      'aria-label': `Medals: Allies ${d.medals.allies} of ${d.needed.allies}, Axis ${d.medals.axis} of ${d.needed.axis}`
        + `${d.winner ? `; the ${SIDE_NAMES[d.winner]} win` : ''}. Show where each medal comes from`,
      onclick: () => { this.open = !this.open; this.render(); }},
    h('span', {class: 'score-label'}, 'Medals'), side('allies'), side('axis'), verdict,
    h('span', {class: 'score-more', 'aria-hidden': 'true'}, this.open ? '▾' : '▸'));
    fill(this.el, strip, this.open ? this.details(d) : null);
  }

  /** Every medal with its rule, side by side, then the notes (readings, stands part-filled). */
  details(d) {
    const link = (reason) => {
      const url = this.content.ruleUrl(reason.rule);
      return url ? h('a', {href: url, class: 'rule-link'}, this.content.name(reason.rule)) : null;
    };
    const item = (r, extra) => h('li', {}, extra, r.text, ' ', link(r));
    const parts = SIDES.map((x) => {
      const mine = d.sources.filter((m) => m.side === x);
      return h('section', {class: 'score-list', 'data-side': x},
        h('h3', {}, `${SIDE_NAMES[x]}: ${d.medals[x]} of ${d.needed[x]}`),
        mine.length ? h('ul', {}, mine.map((m) => item(m, h('strong', {}, `${m.medals} `))))
          : h('p', {class: 'muted small'}, 'No medal yet.'));
    });
    const notes = [d.decided_by, ...d.notes].filter(Boolean);
    return h('div', {class: 'score-details', id: 'score-details'}, parts,
      notes.length ? h('ul', {class: 'reasons small score-notes'}, notes.map((r) => item(r, null))) : null);
  }

  /** Objective and exit hexes drawn on the board (below the other overlays): a medal hex is ringed,
   * its mark sits low in the hex (the unit token, its label and the attacker's badge hold the top and
   * the middle), an exit's arrow low at its right. */
  overlay(board, state) {
    const parts = [];
    const held = new Map();
    for (const found of this.answer?.ok ? this.answer.data.objectives : []) {
      for (const hex of found.hexes) held.set(`${hex.row},${hex.col},${found.kind}`, found.holder);
    }
    const seen = new Map();
    for (const o of state.scenario?.objectives || []) {
      const k = `${o.row},${o.col}`;
      const nth = seen.get(k) || 0;  // a second objective on the hex goes beside the first
      seen.set(k, nth + 1);
      const name = this.content.name(o.kind);
      const mark = kindMark(name);
      const holder = held.get(`${o.row},${o.col},${o.kind}`) ?? o.held_by ?? null;
      const [x, y] = board.centre(o);
      const who = o.side ? `for the ${SIDE_NAMES[o.side]}` : 'for either side';
      const title = `${name} ${who}${holder ? `, held by the ${SIDE_NAMES[holder]}` : ', not held'}`;
      if (!nth) parts.push(board.hexShape(o, `objective-hex gain-${o.side || 'either'}`, 0.9));
      parts.push(s('g', {class: `objective-mark held-${holder || 'none'} gain-${o.side || 'either'}`,
        transform: `translate(${(x - 4 + 22 * nth).toFixed(1)} ${(y + 23).toFixed(1)})`, 'data-kind': o.kind,
        'data-holder': holder || ''},
      s('title', {}, title),
      s('rect', {class: 'objective-medal', x: -(4 + 4.5 * mark.length), y: -8, width: 8 + 9 * mark.length, height: 16,
        rx: 8}),
      s('text', {class: 'objective-text', 'text-anchor': 'middle', 'dominant-baseline': 'central'}, mark)));
    }
    for (const e of state.scenario?.exits || []) {
      const [x, y] = board.centre(e);
      const up = e.row === 0;
      parts.push(board.hexShape(e, `exit-hex side-${e.side}`, 0.9));
      parts.push(s('text', {class: `exit-text side-${e.side}`, x: x + 17, y: y + 17, 'text-anchor': 'middle',
        'dominant-baseline': 'central', 'data-exit': e.side}, s('title', {}, `Exit for the ${SIDE_NAMES[e.side]}`),
      up ? '⇧' : '⇩'));
    }
    return parts;
  }
}

/** A battle's losses as the situation's `casualties` record them (the side that lost them, the
 * unit, the figures lost, whether it was eliminated): the score counts them. */
export function recordLoss(state, unit, lost, eliminated) {
  if (!lost && !eliminated) return;
  state.casualties = [...(state.casualties || []), {
    side: unit.side, type: unit.type, figures: Math.max(lost, 1), eliminated: Boolean(eliminated),
    ...(unit.badges?.length ? {badges: [...unit.badges]} : {}), ...(unit.nation ? {nation: unit.nation} : {}),
  }];
}
