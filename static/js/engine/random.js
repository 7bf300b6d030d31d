// @ts-check
/* PySolFC's two shuffles, as app/engine/deal.py takes them from the pysol_cards package
 * (pysol_cards/random.py, random_base.py, cards.py): deal N here must be game N in PySolFC
 * and on the server, on every device, so the arithmetic is copied, not approximated.
 *
 * - LCRandom31: the Microsoft FreeCell generator, for deals below 32000, after ms_rearrange.
 * - MTRandom: Python's Mersenne Twister (CPython's _randommodule.c), seeded exactly as
 *   `random.seed(n)` seeds it from an int of any size (BigInt here), for the other deals.
 * Both shuffle with pysol_cards' RandomBase.shuffle (Fisher-Yates from the end), and MTRandom
 * draws with RandomBase.randint, `a + int(random() * (b + 1 - a))`, not with Python's own
 * randint: RandomBase comes first in MTRandom's bases. */

/** RandomBase.shuffle: for n from the last index down to 1, swap n with randint(0, n).
 * @template T @param {{randint(a: number, b: number): number}} rng @param {T[]} seq
 * @returns {T[]} the same array, shuffled in place */
function shuffleWith(rng, seq) {
  for (let n = seq.length - 1; n > 0; n--) {
    const j = rng.randint(0, n);
    const card = seq[n];
    seq[n] = seq[j];
    seq[j] = card;
  }
  return seq;
}

const TWO_31 = 2 ** 31;
const TWO_32 = 2 ** 32;
const TWO_33 = 2 ** 33;

/** Microsoft's linear congruential generator as PySolFC runs it (33-bit state; the products
 * stay below 2**53, so plain numbers hold them exactly). */
export class LCRandom31 {
  static MAX_SEED = TWO_33 - 1;

  /** @param {number} seed 1 .. 2**33 - 1 */
  constructor(seed) {
    if (!(Number.isInteger(seed) && seed >= 1 && seed <= LCRandom31.MAX_SEED)) {
      throw new RangeError("seed is out of range");
    }
    this.seed = seed;
    this.seedx = seed < TWO_32 ? seed : seed - TWO_32;
  }

  /** @returns {number} an integer, 15 bits (or 16 for seeds of 2**31 and more) */
  random() {
    this.seedx = (this.seedx * 214013 + 2531011) % TWO_33;
    if (this.seed < TWO_32) {
      const ret = Math.floor(this.seedx / 65536) & 0x7fff;
      return this.seed < TWO_31 ? ret : ret | 0x8000;
    }
    return (Math.floor(this.seedx / 65536) & 0xffff) + 1;
  }

  /** @param {number} a @param {number} b @returns {number} a .. b, both included */
  randint(a, b) {
    return a + (this.random() % (b + 1 - a));
  }

  /** @template T @param {T[]} seq @returns {T[]} */
  shuffle(seq) {
    return shuffleWith(this, seq);
  }
}

const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER_MASK = 0x80000000;
const LOWER_MASK = 0x7fffffff;

/** Python's random.Random: MT19937 with CPython's seeding and its 53-bit random(). */
export class MTRandom {
  /** @param {number|bigint} seed any integer; as in Python, its absolute value is used */
  constructor(seed) {
    this.mt = new Uint32Array(N);
    this.mti = N + 1;
    this.setSeed(seed);
  }

  /** CPython's random_seed for an int: its absolute value cut into 32-bit words, least
   * significant first (one word 0 for 0), then init_by_array.
   * @param {number|bigint} seed */
  setSeed(seed) {
    let n = BigInt(seed);
    if (n < 0n) n = -n;
    const key = [];
    while (n > 0n) {
      key.push(Number(n & 0xffffffffn));
      n >>= 32n;
    }
    if (key.length === 0) key.push(0);
    this.initByArray(key);
  }

  /** @param {number} s */
  initGenrand(s) {
    const mt = this.mt;
    mt[0] = s;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = Math.imul(1812433253, prev) + i;
    }
    this.mti = N;
  }

  /** @param {number[]} key 32-bit words */
  initByArray(key) {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) >>> 0) + key[j] + j;  // mod 2**32 on store
      i++;
      j++;
      if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) >>> 0) - i + TWO_32;
      i++;
      if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
    }
    mt[0] = 0x80000000;  // MSB is 1, assuring a non-zero initial array
  }

  /** @returns {number} the next 32-bit output */
  genrandUint32() {
    const mt = this.mt;
    if (this.mti >= N) {
      let kk = 0;
      let y;
      for (; kk < N - M; kk++) {
        y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
        mt[kk] = mt[kk + M] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      }
      for (; kk < N - 1; kk++) {
        y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
        mt[kk] = mt[kk + (M - N)] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      }
      y = (mt[N - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
      mt[N - 1] = mt[M - 1] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      this.mti = 0;
    }
    let y = mt[this.mti++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** random.random(): 53 random bits, `(a * 2**26 + b) / 2**53`. @returns {number} in [0, 1) */
  random() {
    const a = this.genrandUint32() >>> 5;
    const b = this.genrandUint32() >>> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
  }

  /** RandomBase.randint (not Python's): a + int(random() * (b + 1 - a)).
   * @param {number} a @param {number} b @returns {number} */
  randint(a, b) {
    return a + Math.floor(this.random() * (b + 1 - a));
  }

  /** @template T @param {T[]} seq @returns {T[]} */
  shuffle(seq) {
    return shuffleWith(this, seq);
  }
}

/** pysol_cards.cards.ms_rearrange: a 52-card pack in PySolFC's order (suits C S H D) put in
 * FreeCell's (rank by rank, suits C D H S); any other length is returned as it is.
 * @template T @param {T[]} cards @returns {T[]} */
export function msRearrange(cards) {
  if (cards.length !== 52) return cards;
  const out = [];
  for (let i = 0; i < 13; i++) {
    for (const j of [0, 39, 26, 13]) out.push(cards[i + j]);
  }
  return out;
}
