/*
 * The solver's C core as a Python module: solve(...) reads one position and its rules, runs
 * the decision search (_search.c) or the par search (_par.c) with the GIL released, and hands
 * back (status, moves, nodes), through _position.c (which _wasm.c, the WebAssembly module,
 * shares); playouts(...) plays random games from one (_playout.c). The position encoding is in
 * _core.h; the argument for every pruning is in the header of the file that does it (_moves.c,
 * _prune.c, _word.c, _apex.c, _cone.c, _search.c, _par.c).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_core.h"

static PyObject *line_of(const Ctx *c) {
    PyObject *moves = PyList_New(c->depth);
    if (!moves) return NULL;
    for (int i = 0; i < c->depth; i++) {
        PyObject *m = Py_BuildValue("(iii)", c->path[i].op, c->path[i].a, c->path[i].b);
        if (!m) {
            Py_DECREF(moves);
            return NULL;
        }
        PyList_SET_ITEM(moves, i, m);
    }
    return moves;
}

/* Read a position (see _core.h) into a fresh context (_position.c); NULL with a Python error
 * set when the arguments are malformed or memory runs out. The buffers are released either way. */
static Ctx *load(Py_buffer *pyr_buf, Py_buffer *tal_buf, int top, int pass, int passes,
                 int wholedeck, int overlap, int flags, long long limit, Pos *out) {
    int error = 0;
    Ctx *c = NULL;
    if (tal_buf->len > MAXTALON)
        error = LOAD_MALFORMED;
    else
        c = ctx_load(pyr_buf->buf, (int)(pyr_buf->len > PYR ? PYR + 1 : pyr_buf->len),
                     tal_buf->buf, (int)tal_buf->len, top, pass, passes, wholedeck, overlap,
                     flags, limit, out, &error);
    PyBuffer_Release(pyr_buf);
    PyBuffer_Release(tal_buf);
    if (error == LOAD_NO_MEMORY) PyErr_NoMemory();
    else if (error) PyErr_SetString(PyExc_ValueError, "malformed position");
    return c;
}

static PyObject *py_solve(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"pyramid", "talon", "stock_top", "pass_index", "passes",
                             "wholedeck", "flags", "node_limit", "overlap", "shortest", NULL};
    Py_buffer pyr_buf, tal_buf;
    int top, pass, passes, wholedeck, flags, overlap = 0, shortest = 0;
    long long limit;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*y*iiiiiL|pp", kwlist, &pyr_buf, &tal_buf,
                                     &top, &pass, &passes, &wholedeck, &flags, &limit, &overlap,
                                     &shortest))
        return NULL;
    Pos p;
    Ctx *c = load(&pyr_buf, &tal_buf, top, pass, passes, wholedeck, overlap, flags, limit, &p);
    if (!c) return NULL;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = ctx_solve(c, p, shortest);
    Py_END_ALLOW_THREADS
    if (status == -2) {
        ctx_free(c);
        return PyErr_NoMemory();
    }
    PyObject *moves = status == 1 ? line_of(c) : PyList_New(0);
    long long nodes = c->nodes;
    ctx_free(c);
    if (!moves) return NULL;
    return Py_BuildValue("(iNL)", status, moves, nodes);
}

static PyObject *py_playouts(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"pyramid", "talon", "stock_top", "pass_index", "passes",
                             "wholedeck", "count", "seed", "record", NULL};
    Py_buffer pyr_buf, tal_buf;
    int top, pass, passes, wholedeck, count, record = 0;
    unsigned long long seed;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*y*iiiiiK|p", kwlist, &pyr_buf, &tal_buf,
                                     &top, &pass, &passes, &wholedeck, &count, &seed, &record))
        return NULL;
    if (passes < 1 || count < 0) { /* playouts follow the game: a pass limit, 1..MAX_PASSES */
        PyBuffer_Release(&pyr_buf);
        PyBuffer_Release(&tal_buf);
        PyErr_Format(PyExc_ValueError, "playouts need passes 1..%d and a count >= 0", MAX_PASSES);
        return NULL;
    }
    Pos p;
    Ctx *c = load(&pyr_buf, &tal_buf, top, pass, passes, wholedeck, 0, 0, 0, &p);
    if (!c) return NULL;
    PyObject *lines = record ? PyList_New(0) : Py_NewRef(Py_None);
    if (!lines) {
        ctx_free(c);
        return NULL;
    }
    uint64_t rng = seed;
    long wins = 0, left_total = 0;
    int left;
    if (record) { /* the lines are built as the games are played: with the GIL held */
        for (int i = 0; i < count; i++) {
            int won = playout(c, p, &rng, 1, &left);
            wins += won;
            left_total += left;
            PyObject *line = line_of(c);
            PyObject *item = line ? Py_BuildValue("(ON)", won ? Py_True : Py_False, line) : NULL;
            if (!item || PyList_Append(lines, item) < 0) {
                Py_XDECREF(item);
                Py_DECREF(lines);
                ctx_free(c);
                return NULL;
            }
            Py_DECREF(item);
        }
    } else {
        Py_BEGIN_ALLOW_THREADS
        for (int i = 0; i < count; i++) {
            wins += playout(c, p, &rng, 0, &left);
            left_total += left;
        }
        Py_END_ALLOW_THREADS
    }
    ctx_free(c);
    return Py_BuildValue("(llN)", wins, left_total, lines);
}

static PyMethodDef methods[] = {
    {"solve", (PyCFunction)(void (*)(void))py_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(pyramid, talon, stock_top, pass_index, passes, wholedeck, flags, node_limit, "
     "overlap=False, shortest=False) -> (status, moves, nodes)\n\n"
     "status: 1 won (moves: a winning line, the shortest with shortest=True), 0 lost, "
     "-1 stopped at the node limit. passes=0: unlimited."},
    {"playouts", (PyCFunction)(void (*)(void))py_playouts, METH_VARARGS | METH_KEYWORDS,
     "playouts(pyramid, talon, stock_top, pass_index, passes, wholedeck, count, seed, "
     "record=False) -> (wins, cards_left, lines)\n\n"
     "count games of uniformly random legal moves by the game's rules (_playout.c), from one "
     "SplitMix64 stream seeded with seed; cards_left: the cards the goal still needed at the "
     "ends, summed; lines: with record, a (won, moves) pair a game, else None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_solver",
                                    "The solver's searches, in C.", -1, methods};

/* The pruning flags, the op codes and the pass limit of _core.h, under the names solver.py reads
 * them by. */
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

PyMODINIT_FUNC PyInit__solver(void) {
    apex_init(); /* the pyramid's shapes and cones, once, before any search can run on another
                  * thread (setup_tables reads the cones) */
    cone_init(); /* the cone test's shapes, from those */
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    for (size_t i = 0; i < sizeof CONSTANTS / sizeof CONSTANTS[0]; i++)
        if (PyModule_AddIntConstant(m, CONSTANTS[i].name, CONSTANTS[i].value) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    return m;
}
