/* The page's side of the solver's worker (static/js/solver/device.js), with a stand-in Worker
 * that answers when told: quick questions end no worker, the newest is the one answered, and a
 * deep stale search is ended after its grace.
 *
 *   node tests/js/device.mjs   -> "ok N" on stdout, or a failure and exit 1 */

import { Deal, Game, Move } from "../../static/js/engine/index.js";

const workers = [];
class StandIn {
  constructor(url) {
    this.url = url;
    this.sent = [];
    this.listeners = { message: [], error: [] };
    this.terminated = false;
    workers.push(this);
  }
  addEventListener(type, listener) { this.listeners[type].push(listener); }
  postMessage(message) { this.sent.push(message); }
  terminate() { this.terminated = true; }
  answer(data) { for (const listener of this.listeners.message) listener({ data }); }
  fail() { for (const listener of this.listeners.error) listener({}); }
}
globalThis.Worker = StandIn;
const { DeviceSolver, STALE_GRACE_MS } = await import("../../static/js/solver/device.js");

const after = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const pastGrace = () => after(STALE_GRACE_MS + 50);
const game = new Game(Deal.fromNumber(5), "standard", 3);
const drawn = (count) => {
  const copy = game.copy();
  for (let i = 0; i < count; i++) copy.play(Move.draw());
  return copy;
};

function equal(actual, expected, what) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

const TESTS = {
  "quick questions while the worker loads end no worker; the newest is answered": async () => {
    const device = new DeviceSolver("worker.js");
    const asked = [0, 1, 2].map((n) => device.ask("verdict", drawn(n)));
    equal(workers.length, 1, "workers started");
    const [worker] = workers;
    equal(worker.sent.map((q) => q.id), [1, 2, 3], "questions sent");
    equal(worker.sent[2].position.moves, ["draw", "draw"], "the newest question's moves");
    worker.answer({ ready: true });
    worker.answer({ id: 1, skipped: true });
    worker.answer({ id: 2, skipped: true });
    worker.answer({ id: 3, answer: { verdict: "winnable" } });
    equal(await Promise.all(asked), [null, null, { verdict: "winnable" }], "answers");
    await pastGrace();
    equal([workers.length, worker.terminated], [1, false], "after the grace");
  },
  "a stale search still running after its grace is ended, and the newest goes to a new worker":
    async () => {
      const device = new DeviceSolver("worker.js");
      const first = device.ask("hint", game);
      workers[0].answer({ ready: true });
      device.stale();  // the press: the hint's search goes on in the worker
      equal(await first, null, "the stale question's answer");
      const second = device.ask("verdict", drawn(1));
      equal(workers[0].terminated, false, "within the grace");
      await pastGrace();
      equal([workers.length, workers[0].terminated], [2, true], "the deep search ended");
      equal(workers[1].sent.map((q) => [q.id, q.kind]), [[2, "verdict"]], "the new worker's");
      workers[1].answer({ ready: true });
      workers[1].answer({ id: 2, answer: { verdict: "winnable" } });
      equal(await second, { verdict: "winnable" }, "the newest question's answer");
    },
  "a deep search made stale after a quick one, within the first's grace, is ended too":
    async () => {
      const device = new DeviceSolver("worker.js");
      device.ask("verdict", game);
      workers[0].answer({ ready: true });
      device.stale();
      const second = device.ask("verdict", drawn(1));
      workers[0].answer({ id: 1, answer: { verdict: "winnable" } });  // the quick one ends
      await after(STALE_GRACE_MS / 2);
      device.stale();  // the second, a deep one, goes stale in its turn
      const third = device.ask("verdict", drawn(2));
      equal(await second, null, "the second's answer");
      await after(STALE_GRACE_MS + 50);
      equal([workers.length, workers[0].terminated], [2, true], "the deep search ended");
      equal(workers[1].sent.map((q) => q.id), [3], "the new worker's");
      workers[1].answer({ ready: true });
      workers[1].answer({ id: 3, answer: { verdict: "winnable" } });
      equal(await third, { verdict: "winnable" }, "the newest question's answer");
    },
  "a stale search that ends within its grace keeps its worker": async () => {
    const device = new DeviceSolver("worker.js");
    device.ask("verdict", game);
    workers[0].answer({ ready: true });
    device.stale();
    const second = device.ask("verdict", drawn(1));
    workers[0].answer({ id: 1, answer: { verdict: "winnable" } });  // answered late: ignored
    await pastGrace();
    equal([workers.length, workers[0].terminated], [1, false], "the worker kept");
    workers[0].answer({ id: 2, answer: { verdict: "not_winnable" } });
    equal(await second, { verdict: "not_winnable" }, "the newest question's answer");
  },
  "a verdict does not end a hint of the same position": async () => {
    const device = new DeviceSolver("worker.js");
    const hint = device.ask("hint", game);
    equal(await device.ask("verdict", game), null, "the verdict asked meanwhile");
    workers[0].answer({ ready: true });
    workers[0].answer({ id: 1, answer: { move: { op: "draw" } } });
    equal(await hint, { move: { op: "draw" } }, "the hint's answer");
  },
  "a worker that fails answers every question with null from then on": async () => {
    const device = new DeviceSolver("worker.js");
    const asked = device.ask("verdict", game);
    workers[0].fail();  // its script or the WebAssembly did not load
    equal(await asked, null, "the question waiting");
    equal(await device.ask("verdict", game), null, "a question after");
  },
};

let passed = 0;
for (const [name, test] of Object.entries(TESTS)) {
  workers.length = 0;  // each case starts with no worker
  try {
    await test();
    passed += 1;
  } catch (error) {
    console.log(`FAILED ${name}: ${error.stack}`);
    process.exit(1);
  }
}
console.log(`ok ${passed}`);
