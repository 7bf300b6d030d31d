// @ts-check
/* Python's enum.Enum and enum.StrEnum as app/engine uses them: Goal, Op, Termination and
 * GameStatus. Each member is one frozen object, compared with === as Python compares members
 * with `is`; its `value` is the string the JSON, the API and the pages use ("wholedeck",
 * "draw", "no_moves", "won"), and toString()/toJSON() give that string, so a member prints and
 * serialises as Python's StrEnum does. */

export class PyEnum {
  /** @param {string} name the member's name, as in Python (`WHOLE_DECK`)
   *  @param {string} value its value (`wholedeck`) */
  constructor(name, value) {
    /** @readonly */ this.name = name;
    /** @readonly */ this.value = value;
  }

  /** Every member, in the order the class declares them (Python's `list(Goal)`).
   * @template {typeof PyEnum} T @this {T} @returns {InstanceType<T>[]} */
  static members() {
    return /** @type {any[]} */ (Object.values(this).filter((m) => m instanceof this));
  }

  /** The member with this value, or the member itself (Python's `Goal("wholedeck")`).
   * @template {typeof PyEnum} T @this {T} @param {unknown} value @returns {InstanceType<T>} */
  static from(value) {
    if (value instanceof this) return /** @type {any} */ (value);
    const member = this.members().find((m) => m.value === value);
    if (member === undefined) throw new RangeError(`${String(value)} is not a valid ${this.name}`);
    return member;
  }

  toString() {
    return this.value;
  }

  toJSON() {
    return this.value;
  }
}

/** Freeze an enum's members and the class, once its static members are declared.
 * @template {typeof PyEnum} T @param {T} cls @returns {T} */
export function sealed(cls) {
  for (const member of cls.members()) Object.freeze(member);
  return Object.freeze(cls);
}
