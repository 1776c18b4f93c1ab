// The score strip (a panel): each side's medals, of how many it needs, from POST /api/v1/score,
// shown under the board whenever the situation has a scenario or losses, and asked again after
// every change (a unit eliminated, moved or retreated). A tap on the strip lists every medal with
// the rule it comes from. It also draws the scenario on the board (builder-overlay.js calls
// overlay()): objective hexes with their medal kind, the side that may gain them and the side
// holding them, and exit hexes. A medal gained for good comes back in the answer's `held_by`,
// which the store writes into the objectives, so a permanent medal stays won after its unit leaves.

import {LatestRequest} from './builder-api.js';
import {$, fill, h, s} from './builder-dom.js';
import {situationDoc} from './builder-state.js';

const SIDE_NAMES = {allies: 'Allies', axis: 'Axis'};
const SIDES = ['allies', 'axis'];

/** A short mark for a victory entry drawn on its hexes: the initials of its name without
 * "Medal", "Objective" and "to" ("Temporary Majority Medal Objective" → "TM"). */
export function kindMark(name) {
  return name.replace(/[()]/g, ' ').split(/\s+/).filter((w) => w && !/^(medal|objective|to)$/i.test(w))
    .map((w) => w[0].toUpperCase()).join('') || '★';
}

export class ScoreStrip {
  /** `api`: the /score URL; `redraw`: the controller's {overlay, ...}. */
  constructor({store, content, api, redraw}) {
    Object.assign(this, {store, content, api, redraw});
    this.el = $('#score-box');
    this.request = new LatestRequest(api);
    this.answer = null;
    this.open = false;
  }

  /** Whether the situation has anything to score. */
  static shown(state) {
    return Boolean(state.scenario || state.casualties?.length || state.exited?.length);
  }

  /** Draw the strip, asking for the score first when the situation changed. */
  render() {
    this.update();
    this.draw();
  }

  update() {
    const {state} = this.store;
    if (!ScoreStrip.shown(state)) {
      this.answer = null;
      this.request.clear();
      return;
    }
    const asked = this.request.ask(situationDoc(state), (answer) => {
      this.answer = answer;
      this.pending = false;
      // A medal gained (or lost) for good is carried into the situation: commit without new rulings.
      if (answer.ok && this.store.carryHeld(answer.data.objectives || [])) this.store.commit({refresh: false});
      else { this.draw(); this.redraw.overlay(); }
    });
    if (asked) this.pending = true;
  }

  draw() {
    const a = this.answer;
    this.el.hidden = !ScoreStrip.shown(this.store.state) || (!a && !this.pending);
    if (this.el.hidden || !a) return;
    if (!a.ok) {
      fill(this.el, h('p', {class: 'score-error', role: 'alert'}, `Score: ${a.error.message}`));
      return;
    }
    const d = a.data;
    const side = (x) => h('span', {class: `score-side side-${x}${d.winner === x ? ' won' : ''}`, 'data-side': x},
      h('span', {class: 'score-name'}, SIDE_NAMES[x]), ' ',
      h('strong', {class: 'score-medals'}, String(d.medals[x])), h('span', {class: 'score-of'}, `/${d.needed[x]}`));
    const said = `Medals: Allies ${d.medals.allies} of ${d.needed.allies}, Axis ${d.medals.axis} of ${d.needed.axis}`
      + `${d.winner ? `; the ${SIDE_NAMES[d.winner]} win` : ''}. Show where each medal comes from`;
    const strip = h('button', {type: 'button', class: 'score-strip', id: 'score-strip', 'data-fk': 'score-strip',
      'aria-expanded': String(this.open), 'aria-controls': 'score-details', 'aria-label': said,
      onclick: () => { this.open = !this.open; this.draw(); }},
    h('span', {class: 'score-label'}, 'Medals'), side('allies'), side('axis'),
    d.winner ? h('span', {class: 'score-verdict'}, `${SIDE_NAMES[d.winner]} win`) : null,
    h('span', {class: 'score-more', 'aria-hidden': 'true'}, this.open ? '▾' : '▸'));
    fill(this.el, strip, this.open ? this.details(d) : null);
  }

  /** Every medal with its rule, side by side, then the notes (readings, part-filled stands). */
  details(d) {
    const link = (reason) => {
      const url = this.content.ruleUrl(reason.rule);
      return url ? h('a', {href: url, class: 'rule-link'}, this.content.name(reason.rule)) : null;
    };
    const item = (r, lead) => h('li', {}, lead, r.text, ' ', link(r));
    const lists = SIDES.map((x) => {
      const mine = d.sources.filter((m) => m.side === x);
      return h('section', {class: 'score-list', 'data-side': x},
        h('h3', {}, `${SIDE_NAMES[x]}: ${d.medals[x]} of ${d.needed[x]}`),
        mine.length ? h('ul', {}, mine.map((m) => item(m, h('strong', {}, `${m.medals} `))))
          : h('p', {class: 'muted small'}, 'No medal yet.'));
    });
    const notes = [d.decided_by, ...d.notes].filter(Boolean);
    return h('div', {class: 'score-details', id: 'score-details'}, lists,
      notes.length ? h('ul', {class: 'reasons small score-notes'}, notes.map((r) => item(r, null))) : null);
  }

  /** Objective and exit hexes, drawn under the other overlays: a medal hex is ringed, its mark sits
   * low in the hex (the unit token, the hex label and the attacker's badge hold the top and the
   * middle), an exit's arrow low at its right. */
  overlay(board) {
    const {state} = this.store;
    const parts = [];
    const held = new Map();
    for (const found of this.answer?.ok ? this.answer.data.objectives : []) {
      for (const p of found.hexes) held.set(`${p.row},${p.col},${found.kind}`, found.holder);
    }
    const seen = new Map();
    for (const o of state.scenario?.objectives || []) {
      const k = `${o.row},${o.col}`;
      const nth = seen.get(k) || 0; // a second objective on the hex goes beside the first
      seen.set(k, nth + 1);
      const name = this.content.name(o.kind);
      const mark = kindMark(name);
      const holder = held.get(`${k},${o.kind}`) ?? o.held_by ?? null;
      const [x, y] = board.centre(o);
      const who = o.side ? `for the ${SIDE_NAMES[o.side]}` : 'for either side';
      if (!nth) parts.push(board.hexShape(o, `objective-hex gain-${o.side || 'either'}`, 0.9));
      parts.push(s('g', {class: `objective-mark held-${holder || 'none'} gain-${o.side || 'either'}`,
        transform: `translate(${(x - 4 + 22 * nth).toFixed(1)} ${(y + 23).toFixed(1)})`, 'data-kind': o.kind,
        'data-holder': holder || ''},
      s('title', {}, `${name} ${who}${holder ? `, held by the ${SIDE_NAMES[holder]}` : ', not held'}`),
      s('rect', {class: 'objective-medal', x: -(4 + 4.5 * mark.length), y: -8, width: 8 + 9 * mark.length,
        height: 16, rx: 8}),
      s('text', {class: 'objective-text', 'text-anchor': 'middle', 'dominant-baseline': 'central'}, mark)));
    }
    for (const e of state.scenario?.exits || []) {
      const [x, y] = board.centre(e);
      parts.push(board.hexShape(e, `exit-hex side-${e.side}`, 0.9));
      parts.push(s('text', {class: `exit-text side-${e.side}`, x: x + 17, y: y + 17, 'text-anchor': 'middle',
        'dominant-baseline': 'central', 'data-exit': e.side}, s('title', {}, `Exit for the ${SIDE_NAMES[e.side]}`),
      e.row === 0 ? '⇧' : '⇩'));
    }
    return parts;
  }
}
