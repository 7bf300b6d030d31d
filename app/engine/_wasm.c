/*
 * The solver's C core as a WebAssembly module, for the browser: what _solver.c is to Python,
 * this is to static/js/solver/solver.js. Built by scripts/build_wasm.py (PyPI's ziglang, target
 * wasm32-wasi, a reactor: no main, no imports) into static/wasm/solver.wasm.
 *
 * The page writes a position (see _core.h) into the buffer wasm_input() points at: 28 pyramid
 * values (0 where a card is gone), then the talon's values (waste bottom to top, then stock top
 * to bottom); wasm_solve() reads it through _position.c, as the Python module does, and runs
 * the same search. Its answer stays here until the next solve: the status (1 won, 0 lost, -1
 * stopped at the node limit, -2 out of memory, -3 a malformed position), the nodes searched,
 * and the winning line as (op, location, location) byte triples at wasm_line().
 */
#include "_core.h"

#define EXPORT(name) __attribute__((export_name(#name)))

static uint8_t input[PYR + MAXTALON];
static uint8_t line[3 * MAXPATH];
static int line_length;
static double nodes;
static int ready;

EXPORT(wasm_input) uint8_t *wasm_input(void) { return input; }
EXPORT(wasm_line) uint8_t *wasm_line(void) { return line; }
EXPORT(wasm_line_length) int wasm_line_length(void) { return line_length; }
EXPORT(wasm_nodes) double wasm_nodes(void) { return nodes; }

/* The pruning flags, the op codes and the pass limit of _core.h, read by name
 * (wasm_constant_name). */
static const struct {
    const char *name;
    int value;
} CONSTANTS[] = {
    {"KINGS", F_KINGS},         {"FORCED_PAIRS", F_FORCED}, {"DEAD_ENDS", F_DEAD},
    {"RELAXED", F_RELAXED},     {"COMMUTE", F_COMMUTE},     {"STACKED", F_STACKED},
    {"NESTED", F_NESTED},       {"WORD", F_WORD},           {"APEX", F_APEX},
    {"SUITS", F_SUITS},         {"STARTS", F_STARTS},       {"DOMINANCE", F_DOMINANCE},
    {"CONE", F_CONE},           {"ALL_PRUNING", F_ALL},     {"OP_KING", OP_KING},
    {"OP_PAIR", OP_PAIR},       {"OP_DRAW", OP_DRAW},       {"OP_RECYCLE", OP_RECYCLE},
    {"MAX_PASSES", MAX_PASSES},
};

EXPORT(wasm_constants) int wasm_constants(void) {
    return (int)(sizeof CONSTANTS / sizeof CONSTANTS[0]);
}
EXPORT(wasm_constant_name) const char *wasm_constant_name(int i) { return CONSTANTS[i].name; }
EXPORT(wasm_constant_value) int wasm_constant_value(int i) { return CONSTANTS[i].value; }

/* node_limit is a double (JavaScript's number): 0 for none. */
EXPORT(wasm_solve)
int wasm_solve(int n, int top, int pass, int passes, int wholedeck, int flags, double node_limit,
               int overlap, int shortest) {
    if (!ready) { /* the tables of shapes and cones, once (the Python module's load) */
        apex_init();
        cone_init();
        ready = 1;
    }
    line_length = 0;
    nodes = 0;
    Pos p;
    int error;
    Ctx *c = ctx_load(input, PYR, input + PYR, n, top, pass, passes, wholedeck, overlap, flags,
                      (long long)node_limit, &p, &error);
    if (!c) return error == LOAD_MALFORMED ? -3 : -2;
    int status = ctx_solve(c, p, shortest);
    nodes = (double)c->nodes;
    if (status == 1) {
        line_length = c->depth;
        for (int i = 0; i < c->depth; i++) {
            line[3 * i] = c->path[i].op;
            line[3 * i + 1] = c->path[i].a;
            line[3 * i + 2] = c->path[i].b;
        }
    }
    ctx_free(c);
    return status;
}
