// Lookups over the palette the server generated from the content (adjudicator/web/builder_data.py).
// Nothing here knows a rule: names, kinds and standard figure counts all come from the page data.

export class Content {
  constructor(palette) {
    this.p = palette;
    this.terrain = new Map(palette.terrain.map((t) => [t.id, t]));
    this.obstacles = new Map(palette.obstacles.map((o) => [o.id, o]));
    this.units = new Map(palette.units.map((u) => [u.id, u]));
    this.badges = new Map(palette.badges.map((b) => [b.id, b]));
    this.nations = new Map(palette.nations.map((n) => [n.code, n]));
    this.kinds = palette.kinds;
    this.names = palette.names;
    this.limits = palette.limits;
  }

  /** The rule page of a content id, or null when the id is not an entry. */
  ruleUrl(id) {
    const kind = this.kinds[id];
    return kind ? `/rules/${kind}/${id}` : null;
  }

  name(id) {
    return this.names[id] || id;
  }

  /** What players call a battle-die face ("Grenade"), from the content's one table of them. */
  faceName(face) {
    return this.p.face_names?.[face] || face;
  }

  /** The one citation of a step: the section that decides `fact` of entry `id` (contracts §4:
   * the citations of each structured field, when the page data carries them), else the section
   * the entry is cited to: "Forest — Terrain, Forest". Empty without an id. */
  citation(id, fact = null) {
    if (!id) return '';
    const passage = fact ? this.p.fact_cite?.[id]?.[fact] : undefined;
    const where = (passage !== undefined && this.p.cite_labels?.[passage]) || this.p.cite?.[id];
    return `${this.name(id)}${where ? ` — ${where}` : ''}`;
  }

  hexFeature(id) {
    return this.terrain.get(id) || this.obstacles.get(id) || null;
  }

  /** The unit entry whose numbers apply, as the engine resolves it (a badge's ``turns_into``,
   * else a nation-specific variant of the type): used only to show the standard strength. */
  profile(unit) {
    for (const badge of unit.badges || []) {
      const into = this.badges.get(badge)?.turns_into;
      const target = into && this.units.get(into);
      if (target && (target.base === unit.type || target.base === null || into === unit.type)) return target;
    }
    if (unit.nation) {
      for (const u of this.units.values()) if (u.nation === unit.nation && u.base === unit.type) return u;
    }
    return this.units.get(unit.type) || null;
  }

  standardFigures(unit) {
    const profile = this.profile(unit);
    // Unknown type (e.g. a damaged link): no rule number here; the engine will name the bad field.
    if (!profile) return this.limits.max_figures;
    return profile.figures_by_nation?.[unit.nation] ?? profile.figures;
  }

  /** Start figures the form offers: a fixed count, or the entry's range (Half-Tracks 1-3). */
  startChoices(unit) {
    const profile = this.profile(unit);
    const max = this.limits.max_figures;
    if (profile?.figures_range) {
      const [lo, hi] = profile.figures_range;
      return Array.from({length: hi - lo + 1}, (_, i) => lo + i);
    }
    return Array.from({length: max}, (_, i) => i + 1);
  }

  startFigures(unit) {
    return unit.start_figures || this.standardFigures(unit);
  }

  /** Badges and unit markers that may go on a unit of this type (``applies_to``, empty = any). */
  badgesFor(type) {
    const base = this.units.get(type)?.base;
    const fits = (b) => !b.applies_to.length || b.applies_to.includes(type) || (base && b.applies_to.includes(base));
    return this.p.badges.filter(fits);
  }

  /** How far the unit battles (its dice by range: presentation only, the engine rules it). */
  reach(unit) {
    return (this.profile(unit) || this.units.get(unit.type))?.reach || 0;
  }

  canResupply(unit) {
    return Boolean(this.profile(unit)?.can_resupply || this.units.get(unit.type)?.can_resupply);
  }

  abbr(unit) {
    return (this.profile(unit) || this.units.get(unit.type))?.abbr || unit.type.slice(0, 3).toUpperCase();
  }

  unitName(unit) {
    return this.name(this.profile(unit)?.id || unit.type);
  }

  sideName(side) {
    return side === 'axis' ? 'Axis' : 'Allied';
  }
}
