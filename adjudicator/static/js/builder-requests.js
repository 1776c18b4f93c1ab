// The ruling requests: after each change, the rulings the situation calls for — the battle and
// the line of sight between attacker and target, the same battle the other way round (the ruling
// line shows both directions), the target's retreat, the selected supplier's re-supply — asked
// together (builder-api.js), their answers kept in the store as one set. They are asked at once,
// with no wait, before the page redraws (the controller schedules them first): the requests are
// on their way while the tap's change is drawn, and the battle's verdict is drawn on the ruling
// line alone as soon as it comes, the rest of the ruling once every answer is in. A newer change
// aborts the requests of the older one, so an answer about a situation that has since changed is
// never shown; a second change in the same task asks again once, when that task's changes are made.

import {postJSON} from './builder-api.js';
import {playFields, rulingDoc, situationDoc} from './builder-state.js';
import {nextTask} from './builder-view.js';

export class Requests {
  /** `api`: the endpoint URLs of the page data; `redraw`: the controller's {verdict, overlay, rulingBody, …}. */
  constructor({store, api, redraw}) {
    Object.assign(this, {store, api, redraw});
    this.controller = null;
    this.queued = false;
    this.askedInTask = false;
  }

  /** Ask for the rulings of the situation as it stands: at once (the requests leave before the
   * redraw), or, for another change in the same task, once that task's changes are made. */
  schedule() {
    if (this.queued) return;
    if (this.askedInTask) {
      this.queued = true;
      queueMicrotask(() => {
        this.queued = false;
        this.restart();
      });
      return;
    }
    this.askedInTask = true;
    setTimeout(() => { this.askedInTask = false; }, 0);
    this.restart();
  }

  restart() {
    this.controller?.abort();
    this.controller = new AbortController();
    this.ask(this.controller.signal);
  }

  async ask(signal) {
    const {store, api} = this;
    const {state} = store;
    const doc = situationDoc(state);
    const attacker = store.attacker();
    const target = store.target();
    const supplier = store.selectedSupplier();
    const jobs = {};
    if (attacker && target) {
      const alone = store.cardAttacksAlone();
      const battle = {...rulingDoc(state), attacker: alone ? null : attacker.id, target: target.id};
      if (state.card) Object.assign(battle, {card: state.card, ...playFields(state)});
      if (state.combat_card) battle.combat_card = state.combat_card;
      if (state.overrun_battle) battle.overrun_battle = true;
      jobs.battle = postJSON(api.battle, battle, signal);
      // The other direction, at a glance on the ruling line (and the answer its swap shows).
      if (!alone) {
        const reverse = {...battle, attacker: target.id, target: attacker.id};
        delete reverse.overrun_battle;
        jobs.reverse = postJSON(api.battle, reverse, signal);
      }
      // The card's own attack needs no line of sight (it is ruled on the target alone).
      if (!alone) jobs.los = postJSON(api.line_of_sight,
        {...doc, from: {row: attacker.row, col: attacker.col}, to: {row: target.row, col: target.col}}, signal);
    }
    if (target) {
      const retreat = {...doc, unit: target.id, flags: state.flags};
      if (state.card) retreat.card = state.card;
      if (state.combat_card) retreat.combat_card = state.combat_card;
      jobs.retreat = postJSON(api.retreat, retreat, signal);
    }
    if (supplier) jobs.resupply = postJSON(api.resupply, {...doc, supplier: supplier.id}, signal);
    const names = Object.keys(jobs);
    // The battle's answer is the verdict the player waits for: the line alone shows it as soon as
    // it comes, before the other answers (the rest of the ruling is drawn when all are in).
    jobs.battle?.then((answer) => {
      if (signal.aborted || answer.aborted || !store.ui.pending) return;
      store.setResults({battle: answer}, {partial: true});
      this.redraw.verdict();
    });
    const answers = await Promise.all(Object.values(jobs));
    if (signal.aborted || answers.some((a) => a.aborted)) return;
    store.setResults(Object.fromEntries(names.map((n, i) => [n, answers[i]])));
    const b = store.ui.results.battle;
    if (b?.ok && b.data.legal && b.data.dice >= 1 && store.state.flags > b.data.dice) {
      store.capFlags(b.data.dice); // no more flags than dice: ask again for the retreat that can happen
      store.commit();
      return;
    }
    // The verdict on the line first, then the line of sight (and the rest) on the board, then the
    // whole ruling under the line (its parts, its tabs), each in a task of its own: three short
    // tasks on a slow phone, not one long one.
    this.redraw.verdict();
    await nextTask();
    if (signal.aborted) return;
    this.redraw.overlay();
    await nextTask();
    if (!signal.aborted) this.redraw.rulingBody();
  }
}
