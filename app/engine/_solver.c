#define PY_SSIZE_T_CLEAN
#include <Python.h>
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "_solver", NULL, -1, NULL};
PyMODINIT_FUNC PyInit__solver(void) { return PyModule_Create(&mod); }
