/* ycsbctl._native: the compiled per-operation core. Its pure-Python twin is the code that calls it
 * (ycsbctl/native.py says which path is active); each function here does exactly what the Python
 * it replaces does, so that both paths produce the same operations, bytes and counts.
 *
 *   fnvhash64(n)                    YCSB's fnvhash64 of one int (keys.fnvhash64, for issue-time keys)
 *   fnv64_into(src, dst)            YCSB's fnvhash64 over an int64 buffer (keys.fnvhash64_steps)
 *   scramble_into(src, dst, lo, n)  lo + fnvhash64(src) % n (ScrambledZipfian.scramble)
 *   key_names(nums, ordered, zeropadding, start, stop) -> list[bytes]   (keys.key_name_steps)
 *   java_hash(key) -> int           Java String.hashCode of an ASCII key (redis binding java_hash)
 *   Record(slots, islots, mode[, bounds])  Recorder.record: one operation into the dense HDR counts (and where
 *                                   each slot's counts lie, for the compaction: Recorder.bounds)
 *   Skimmer()                       RESP replies told apart without building them (hiredis does)
 *   OpMsgReader()                   MongoDB OP_MSG replies framed and the plain ones judged in place
 *                                   (mongodb/wire.py data_received, wire_chain.reply_status)
 *   run_basic(...)                  basic://'s unpaced chain (stores/basic/binding.py BasicBinding.chain)
 */
#define _GNU_SOURCE  /* memmem */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FNV_OFFSET 0xCBF29CE484222325ULL
#define FNV_PRIME 1099511628211ULL

static inline int64_t fnv64(uint64_t v) {
    uint64_t h = FNV_OFFSET;
    for (int i = 0; i < 8; i++) {
        h ^= v & 0xFF;
        h *= FNV_PRIME;
        v >>= 8;
    }
    int64_t s = (int64_t)h;
    /* Java's Math.abs: Long.MIN_VALUE stays negative (as numpy's abs of int64). */
    return (s < 0 && s != INT64_MIN) ? -s : s;
}

/* An int64 buffer, C-contiguous (numpy int64 arrays, array('q')). */
static int get_int64(PyObject *obj, Py_buffer *view, int writable) {
    if (PyObject_GetBuffer(obj, view, (writable ? PyBUF_WRITABLE : 0) | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    const char *f = view->format ? view->format : "B";
    if (*f == '<' || *f == '=' || *f == '@') f++;
    if (view->itemsize != 8 || !(f[0] == 'q' || f[0] == 'l') || f[1] != 0) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_TypeError, "expected a contiguous int64 buffer");
        return -1;
    }
    return 0;
}

static PyObject *fnvhash64_one(PyObject *self, PyObject *value) {
    unsigned long long v = PyLong_AsUnsignedLongLongMask(value);  /* & (2**64 - 1), as keys.fnvhash64 */
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    return PyLong_FromLongLong(fnv64(v));
}

static PyObject *fnv64_into(PyObject *self, PyObject *args) {
    PyObject *src, *dst;
    Py_buffer a, b;
    if (!PyArg_ParseTuple(args, "OO", &src, &dst)) return NULL;
    if (get_int64(src, &a, 0) < 0) return NULL;
    if (get_int64(dst, &b, 1) < 0) { PyBuffer_Release(&a); return NULL; }
    if (a.len != b.len) {
        PyBuffer_Release(&a); PyBuffer_Release(&b);
        PyErr_SetString(PyExc_ValueError, "source and destination differ in length");
        return NULL;
    }
    const int64_t *s = a.buf;
    int64_t *d = b.buf;
    Py_ssize_t n = a.len / 8;
    for (Py_ssize_t i = 0; i < n; i++) d[i] = fnv64((uint64_t)s[i]);
    PyBuffer_Release(&a); PyBuffer_Release(&b);
    Py_RETURN_NONE;
}

/* numpy's % on int64 takes the sign of the divisor (Python's floor modulo). */
static inline int64_t floor_mod(int64_t a, int64_t n) {
    int64_t r = a % n;
    return (r != 0 && ((r < 0) != (n < 0))) ? r + n : r;
}

static PyObject *scramble_into(PyObject *self, PyObject *args) {
    PyObject *src, *dst;
    long long lo, count;
    Py_buffer a, b;
    if (!PyArg_ParseTuple(args, "OOLL", &src, &dst, &lo, &count)) return NULL;
    if (count == 0) { PyErr_SetString(PyExc_ZeroDivisionError, "itemcount is 0"); return NULL; }
    if (get_int64(src, &a, 0) < 0) return NULL;
    if (get_int64(dst, &b, 1) < 0) { PyBuffer_Release(&a); return NULL; }
    if (a.len != b.len) {
        PyBuffer_Release(&a); PyBuffer_Release(&b);
        PyErr_SetString(PyExc_ValueError, "source and destination differ in length");
        return NULL;
    }
    const int64_t *s = a.buf;
    int64_t *d = b.buf;
    Py_ssize_t n = a.len / 8;
    for (Py_ssize_t i = 0; i < n; i++) d[i] = (int64_t)lo + floor_mod(fnv64((uint64_t)s[i]), (int64_t)count);
    PyBuffer_Release(&a); PyBuffer_Release(&b);
    Py_RETURN_NONE;
}

/* "user" + decimal of v, zero-padded to width as Python's b"%0*d" (a minus sign counts in the width). */
static PyObject *key_name(int64_t v, int width) {
    char digits[24];
    int nd = 0;
    int neg = v < 0;
    uint64_t u = neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do { digits[nd++] = (char)('0' + u % 10); u /= 10; } while (u);
    int body = nd + neg;
    int pad = width > body ? width - body : 0;
    Py_ssize_t len = 4 + pad + body;
    PyObject *out = PyBytes_FromStringAndSize(NULL, len);
    if (!out) return NULL;
    char *p = PyBytes_AS_STRING(out);
    memcpy(p, "user", 4);
    p += 4;
    if (neg) *p++ = '-';
    memset(p, '0', pad);
    p += pad;
    while (nd) *p++ = digits[--nd];
    return out;
}

static PyObject *key_names(PyObject *self, PyObject *args) {
    PyObject *src;
    int ordered, width;
    Py_ssize_t start, stop;
    Py_buffer a;
    if (!PyArg_ParseTuple(args, "Opinn", &src, &ordered, &width, &start, &stop)) return NULL;
    if (get_int64(src, &a, 0) < 0) return NULL;
    Py_ssize_t n = a.len / 8;
    if (start < 0) start = 0;
    if (stop > n) stop = n;
    if (stop < start) stop = start;
    if (width < 1) width = 1;
    PyObject *out = PyList_New(stop - start);
    if (!out) { PyBuffer_Release(&a); return NULL; }
    const int64_t *s = a.buf;
    for (Py_ssize_t i = start; i < stop; i++) {
        int64_t v = ordered ? s[i] : fnv64((uint64_t)s[i]);
        PyObject *name = key_name(v, width);
        if (!name) { Py_DECREF(out); PyBuffer_Release(&a); return NULL; }
        PyList_SET_ITEM(out, i - start, name);
    }
    PyBuffer_Release(&a);
    return out;
}

static PyObject *java_hash(PyObject *self, PyObject *key) {
    if (!PyBytes_Check(key)) { PyErr_SetString(PyExc_TypeError, "key must be bytes"); return NULL; }
    const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(key);
    Py_ssize_t n = PyBytes_GET_SIZE(key);
    uint32_t h = 0;
    for (Py_ssize_t i = 0; i < n; i++) h = 31 * h + p[i];
    return PyLong_FromLong((long)(int32_t)h);
}

/* -- Record: Recorder.record in C ------------------------------------------------------------ */

#define SMALL 2048
#define HIGHEST_US 3600000000LL
#define N_STATUS 5

/* HdrHistogram's counts index (results/histogram.py counts_index). */
static inline Py_ssize_t counts_index(int64_t v) {
    if (v < SMALL) return v < 0 ? 0 : (Py_ssize_t)v;
    if (v > HIGHEST_US) v = HIGHEST_US;
    int b = 64 - __builtin_clzll((uint64_t)v) - 11;
    return (Py_ssize_t)(((int64_t)b << 10) + (v >> b));
}

enum { MODE_OP = 0, MODE_INTENDED = 1, MODE_BOTH = 2 };

typedef struct {
    PyObject_HEAD
    PyObject *slots;   /* list of array('q') (or None), by op * 5 + status: swapped by Recorder.roll */
    PyObject *islots;  /* the intended-latency counts (mode both) */
    int mode;
    vectorcallfunc vectorcall;
    /* Recorder.bounds (or NULL): per slot of slots, then of islots, the lowest and highest counts index counted
     * (reset by Recorder.roll), held for the object's life so that its memory stays put */
    Py_buffer bview;
    int64_t *bounds;
} RecordObject;

/* The pair of bounds of slot `slot` of the list that starts at pair `base` (NULL without bounds). */
static inline int64_t *bounds_of(RecordObject *r, Py_ssize_t base, Py_ssize_t slot) {
    return r && r->bounds ? r->bounds + 2 * (base + slot) : NULL;
}

static int count_into(PyObject *slots, Py_ssize_t slot, int64_t value_us, int64_t *b) {
    if (slot < 0 || slot >= PyList_GET_SIZE(slots)) {
        PyErr_SetString(PyExc_IndexError, "no such operation/status slot");
        return -1;
    }
    PyObject *arr = PyList_GET_ITEM(slots, slot);
    Py_buffer view;
    if (get_int64(arr, &view, 1) < 0) return -1;
    Py_ssize_t i = counts_index(value_us);
    if (i >= view.len / 8) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_IndexError, "counts index out of range");
        return -1;
    }
    ((int64_t *)view.buf)[i] += 1;
    PyBuffer_Release(&view);
    if (b) {
        if (i < b[0]) b[0] = i;
        if (i > b[1]) b[1] = i;
    }
    return 0;
}

/* Python's // on ints: floor division (a latency below 0 ns never happens; kept exact anyway). */
static inline int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static PyObject *record_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    RecordObject *r = (RecordObject *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs != 5 || kwnames) {
        PyErr_SetString(PyExc_TypeError, "record(op, status, t0_ns, t1_ns, due_ns)");
        return NULL;
    }
    long op = PyLong_AsLong(args[0]);
    long st = PyLong_AsLong(args[1]);
    long long t0 = PyLong_AsLongLong(args[2]);
    long long t1 = PyLong_AsLongLong(args[3]);
    long long due = PyLong_AsLongLong(args[4]);
    if (PyErr_Occurred()) return NULL;
    Py_ssize_t slot = (Py_ssize_t)op * N_STATUS + st;
    if (r->mode != MODE_INTENDED) {
        if (count_into(r->slots, slot, floor_div(t1 - t0, 1000), bounds_of(r, 0, slot)) < 0) return NULL;
    }
    if (r->mode != MODE_OP) {
        int both = r->mode == MODE_BOTH;
        if (count_into(both ? r->islots : r->slots, slot, floor_div(t1 - (due ? due : t0), 1000),
                       bounds_of(r, both ? PyList_GET_SIZE(r->slots) : 0, slot)) < 0) return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *record_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    PyObject *slots, *islots, *bounds = Py_None;
    const char *mode;
    static char *names[] = {"slots", "islots", "measurement", "bounds", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O!s|O", names, &PyList_Type, &slots, &PyList_Type, &islots, &mode,
                                     &bounds))
        return NULL;
    int m;
    if (!strcmp(mode, "op")) m = MODE_OP;
    else if (!strcmp(mode, "intended")) m = MODE_INTENDED;
    else if (!strcmp(mode, "both")) m = MODE_BOTH;
    else { PyErr_SetString(PyExc_ValueError, "measurement: op, intended or both"); return NULL; }
    RecordObject *r = (RecordObject *)type->tp_alloc(type, 0);
    if (!r) return NULL;
    Py_INCREF(slots); Py_INCREF(islots);
    r->slots = slots; r->islots = islots; r->mode = m;
    r->vectorcall = record_vectorcall;
    if (bounds != Py_None) {
        if (get_int64(bounds, &r->bview, 1) < 0) { Py_DECREF(r); return NULL; }
        r->bounds = (int64_t *)r->bview.buf;
        if (r->bview.len / 8 < 2 * (PyList_GET_SIZE(slots) + PyList_GET_SIZE(islots))) {
            PyErr_SetString(PyExc_ValueError, "bounds: two int64 per slot of slots and of islots");
            Py_DECREF(r);
            return NULL;
        }
    }
    return (PyObject *)r;
}

static void record_dealloc(RecordObject *r) {
    PyObject_GC_UnTrack(r);
    if (r->bounds) { r->bounds = NULL; PyBuffer_Release(&r->bview); }
    Py_CLEAR(r->slots); Py_CLEAR(r->islots);
    Py_TYPE(r)->tp_free((PyObject *)r);
}

static int record_traverse(RecordObject *r, visitproc visit, void *arg) {
    Py_VISIT(r->slots); Py_VISIT(r->islots);
    return 0;
}

static PyTypeObject RecordType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ycsbctl._native.Record",
    .tp_basicsize = sizeof(RecordObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "Record(slots, islots, measurement[, bounds]): record(op, status, t0_ns, t1_ns, due_ns) counts one "
              "operation's latency (µs) into the dense HDR counts slots[op*5+status] (and islots, intended, with "
              "'both'); bounds (int64, two per slot of slots then of islots) keep the lowest and highest index counted.",
    .tp_new = record_new,
    .tp_dealloc = (destructor)record_dealloc,
    .tp_traverse = (traverseproc)record_traverse,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(RecordObject, vectorcall),
};

/* -- run_basic: basic://'s chain (BasicBinding.chain, unpaced) ------------------------------------ */

#include <time.h>

static inline int64_t now_ns(void) {  /* time.perf_counter_ns's clock on Linux */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#define OP_UPDATE 1
#define OP_INSERT 2

/* run_basic(ops, keys, keynums, wfs, start, end, record, values, ack, deadline_ns) -> done: each
 * operation issued (its key read), its values taken (writes), timed into record (OK), its insert
 * acknowledged (ack, or None); stops after the operation that ends at or past the deadline. */
static PyObject *run_basic(PyObject *self, PyObject *args) {
    PyObject *ops, *keys, *keynums, *wfs, *record, *values, *ack;
    Py_ssize_t start, end;
    long long deadline;
    if (!PyArg_ParseTuple(args, "OOOOnnOOOL", &ops, &keys, &keynums, &wfs, &start, &end, &record, &values, &ack,
                          &deadline))
        return NULL;
    RecordObject *rec = Py_IS_TYPE(record, &RecordType) ? (RecordObject *)record : NULL;
    PyObject *all_fields = PyLong_FromLong(-1);
    if (!all_fields) return NULL;
    Py_ssize_t i = start;
    for (; i < end; i++) {
        PyObject *o = PySequence_GetItem(ops, i);
        if (!o) goto fail;
        long op = PyLong_AsLong(o);
        Py_DECREF(o);
        if (op == -1 && PyErr_Occurred()) goto fail;
        PyObject *key = PySequence_GetItem(keys, i);  /* issues the operation: a key chosen at issue time is chosen now */
        if (!key) goto fail;
        Py_DECREF(key);
        int64_t t0 = now_ns();
        if (op == OP_UPDATE || op == OP_INSERT) {
            PyObject *field = op == OP_UPDATE ? PySequence_GetItem(wfs, i) : (Py_INCREF(all_fields), all_fields);
            if (!field) goto fail;
            PyObject *v = PyObject_CallOneArg(values, field);
            Py_DECREF(field);
            if (!v) goto fail;
            Py_DECREF(v);
        }
        int64_t t1 = now_ns();
        if (rec && rec->mode == MODE_OP) {
            if (count_into(rec->slots, (Py_ssize_t)op * N_STATUS, floor_div(t1 - t0, 1000),
                           bounds_of(rec, 0, (Py_ssize_t)op * N_STATUS)) < 0) goto fail;
        } else {
            PyObject *r = PyObject_CallFunction(record, "liLLL", op, 0, (long long)t0, (long long)t1, (long long)t0);
            if (!r) goto fail;
            Py_DECREF(r);
        }
        if (op == OP_INSERT && ack != Py_None) {
            PyObject *num = PySequence_GetItem(keynums, i);
            if (!num) goto fail;
            PyObject *r = PyObject_CallOneArg(ack, num);
            Py_DECREF(num);
            if (!r) goto fail;
            Py_DECREF(r);
        }
        if (t1 >= deadline) { i++; break; }
    }
    Py_DECREF(all_fields);
    return PyLong_FromSsize_t(i - start);
fail:
    Py_DECREF(all_fields);
    return NULL;
}

/* -- Skimmer: RESP replies, told apart without building them ----------------------------------- */

enum { REPLY_OK = 0, REPLY_EMPTY = 1, REPLY_ERROR = 2 };

typedef struct {
    PyObject_HEAD
    char *buf;
    Py_ssize_t len, cap, pos;   /* unread bytes are buf[pos:len] */
    Py_ssize_t last_start, last_end;  /* the last reply handed out (for raw()) */
} SkimmerObject;

/* Where the line starting at p ends (the index of its '\r'), or -1 if it is not all here. */
static Py_ssize_t line_end(const char *b, Py_ssize_t p, Py_ssize_t len) {
    const char *cr = memchr(b + p, '\r', len - p);
    if (!cr) return -1;
    Py_ssize_t e = cr - b;
    return e + 1 < len ? e : -1;
}

static int parse_int(const char *b, Py_ssize_t p, Py_ssize_t e, long long *out) {
    long long v = 0;
    int neg = 0;
    if (p < e && b[p] == '-') { neg = 1; p++; }
    if (p >= e) return -1;
    for (; p < e; p++) {
        if (b[p] < '0' || b[p] > '9') return -1;
        v = v * 10 + (b[p] - '0');
    }
    *out = neg ? -v : v;
    return 0;
}

/* Skip one reply starting at *p: 1 done (*p after it, *kind its kind), 0 incomplete, -1 malformed. */
static int skip_reply(const char *b, Py_ssize_t len, Py_ssize_t *p, int *kind, int depth) {
    if (*p >= len) return 0;
    if (depth > 64) return -1;
    char t = b[*p];
    Py_ssize_t e = line_end(b, *p + 1, len);
    if (e < 0) return 0;
    long long n;
    switch (t) {
    case '+': case ':': case ',': case '(': case '#':
        *kind = REPLY_OK; *p = e + 2; return 1;
    case '-': case '!':
        if (t == '!') {  /* RESP3 blob error: !<len>\r\n<bytes>\r\n */
            if (parse_int(b, *p + 1, e, &n) < 0 || n < 0) return -1;
            if (e + 2 + n + 2 > len) return 0;
            *kind = REPLY_ERROR; *p = e + 2 + n + 2; return 1;
        }
        *kind = REPLY_ERROR; *p = e + 2; return 1;
    case '_':
        *kind = REPLY_EMPTY; *p = e + 2; return 1;
    case '$': case '=':
        if (parse_int(b, *p + 1, e, &n) < 0) return -1;
        if (n < 0) { *kind = REPLY_EMPTY; *p = e + 2; return 1; }
        if (e + 2 + n + 2 > len) return 0;
        *kind = REPLY_OK; *p = e + 2 + n + 2; return 1;
    case '*': case '~': case '>': case '%': {
        if (parse_int(b, *p + 1, e, &n) < 0) return -1;
        if (n < 0) { *kind = REPLY_EMPTY; *p = e + 2; return 1; }
        if (t == '%') n *= 2;
        Py_ssize_t q = e + 2;
        int first = REPLY_OK;
        for (long long i = 0; i < n; i++) {
            int k = REPLY_OK;
            int r = skip_reply(b, len, &q, &k, depth + 1);
            if (r <= 0) return r;
            if (i == 0) first = k;
        }
        /* As the pure path reads a read's reply: an empty array, or one whose first element is nil. */
        *kind = (n == 0 || first == REPLY_EMPTY) ? REPLY_EMPTY : REPLY_OK;
        *p = q;
        return 1;
    }
    default:
        return -1;
    }
}

static PyObject *skimmer_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    SkimmerObject *s = (SkimmerObject *)type->tp_alloc(type, 0);
    if (!s) return NULL;
    s->cap = 1 << 14;
    s->buf = PyMem_Malloc(s->cap);
    if (!s->buf) { Py_DECREF(s); return PyErr_NoMemory(); }
    return (PyObject *)s;
}

static void skimmer_dealloc(SkimmerObject *s) {
    PyMem_Free(s->buf);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyObject *skimmer_feed(SkimmerObject *s, PyObject *data) {
    Py_buffer v;
    if (PyObject_GetBuffer(data, &v, PyBUF_SIMPLE) < 0) return NULL;
    if (s->pos == s->len) { s->pos = s->len = 0; s->last_start = s->last_end = 0; }
    if (s->len + v.len > s->cap) {
        if (s->pos > 0) {  /* drop what was read (raw() of the last reply is gone then) */
            memmove(s->buf, s->buf + s->pos, s->len - s->pos);
            s->len -= s->pos; s->pos = 0; s->last_start = s->last_end = 0;
        }
        if (s->len + v.len > s->cap) {
            Py_ssize_t cap = s->cap;
            while (cap < s->len + v.len) cap *= 2;
            char *nb = PyMem_Realloc(s->buf, cap);
            if (!nb) { PyBuffer_Release(&v); return PyErr_NoMemory(); }
            s->buf = nb; s->cap = cap;
        }
    }
    memcpy(s->buf + s->len, v.buf, v.len);
    s->len += v.len;
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
}

static PyObject *ProtocolError;

static PyObject *skimmer_next(SkimmerObject *s, PyObject *unused) {
    Py_ssize_t p = s->pos;
    int kind = REPLY_OK;
    int r = skip_reply(s->buf, s->len, &p, &kind, 0);
    if (r == 0) Py_RETURN_NONE;
    if (r < 0) {
        PyErr_Format(ProtocolError, "protocol error: unexpected byte 0x%02x at a reply's start",
                     (unsigned int)(unsigned char)s->buf[s->pos]);
        return NULL;
    }
    s->last_start = s->pos;
    s->last_end = p;
    s->pos = p;
    return PyLong_FromLong(kind);
}

static PyObject *skimmer_raw(SkimmerObject *s, PyObject *unused) {
    return PyBytes_FromStringAndSize(s->buf + s->last_start, s->last_end - s->last_start);
}

static PyMethodDef skimmer_methods[] = {
    {"feed", (PyCFunction)skimmer_feed, METH_O, "feed(data): bytes read from the connection."},
    {"next", (PyCFunction)skimmer_next, METH_NOARGS,
     "next() -> None (no whole reply yet) or the next reply's kind: 0 OK, 1 empty (nil, an empty array or one "
     "whose first element is nil), 2 an error reply."},
    {"raw", (PyCFunction)skimmer_raw, METH_NOARGS, "raw() -> the bytes of the reply next() last told apart."},
    {NULL}};

static PyTypeObject SkimmerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ycsbctl._native.Skimmer",
    .tp_basicsize = sizeof(SkimmerObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "RESP replies told apart (kind and extent) without building them.",
    .tp_new = skimmer_new,
    .tp_dealloc = (destructor)skimmer_dealloc,
    .tp_methods = skimmer_methods,
};

/* -- OpMsgReader: MongoDB OP_MSG replies framed, and the plain ones judged, in place ------------------ */

#define OP_MSG 2013
#define NO_BODY (-(1LL << 40))  /* next()'s answer for a message without a kind-0 body: never a request id */

typedef struct {
    PyObject_HEAD
    char *buf;
    Py_ssize_t len, cap, pos;
    Py_ssize_t body_start, body_len;  /* the body of the message next() last framed */
} OpMsgObject;

static PyObject *opmsg_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    OpMsgObject *s = (OpMsgObject *)type->tp_alloc(type, 0);
    if (!s) return NULL;
    s->cap = 1 << 14;
    s->buf = PyMem_Malloc(s->cap);
    if (!s->buf) { Py_DECREF(s); return PyErr_NoMemory(); }
    return (PyObject *)s;
}

static void opmsg_dealloc(OpMsgObject *s) {
    PyMem_Free(s->buf);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyObject *opmsg_feed(OpMsgObject *s, PyObject *data) {
    Py_buffer v;
    if (PyObject_GetBuffer(data, &v, PyBUF_SIMPLE) < 0) return NULL;
    if (s->pos == s->len) { s->pos = s->len = 0; s->body_start = s->body_len = 0; }
    if (s->len + v.len > s->cap) {
        if (s->pos > 0) {
            memmove(s->buf, s->buf + s->pos, s->len - s->pos);
            s->len -= s->pos; s->pos = 0; s->body_start = s->body_len = 0;
        }
        if (s->len + v.len > s->cap) {
            Py_ssize_t cap = s->cap;
            while (cap < s->len + v.len) cap *= 2;
            char *nb = PyMem_Realloc(s->buf, cap);
            if (!nb) { PyBuffer_Release(&v); return PyErr_NoMemory(); }
            s->buf = nb; s->cap = cap;
        }
    }
    memcpy(s->buf + s->len, v.buf, v.len);
    s->len += v.len;
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
}

static inline int32_t le32(const char *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return (int32_t)v;  /* x86-64 and arm64 Linux are little-endian, as the wire */
}

static PyObject *opmsg_next(OpMsgObject *s, PyObject *unused) {
    Py_ssize_t avail = s->len - s->pos;
    if (avail < 16) Py_RETURN_NONE;
    const char *m = s->buf + s->pos;
    Py_ssize_t length = le32(m);
    if (length < 16) length = 16;  /* garbage: framed as a header alone (answered as out of step) */
    if (avail < length) Py_RETURN_NONE;
    int32_t response_to = le32(m + 8), opcode = le32(m + 12);
    s->pos += length;
    if (opcode == OP_MSG && length >= 21 && m[20] == 0) {
        s->body_start = (m - s->buf) + 21;
        s->body_len = length - 21;
        return PyLong_FromLong(response_to);
    }
    s->body_start = s->body_len = 0;
    return PyLong_FromLongLong(NO_BODY);
}

static PyObject *opmsg_body(OpMsgObject *s, PyObject *unused) {
    return PyBytes_FromStringAndSize(s->buf + s->body_start, s->body_len);
}

#define ST_OK 0
#define ST_NOT_FOUND 1
#define OP_READ 0

static int has_at(const char *b, Py_ssize_t n, Py_ssize_t at, const char *what, Py_ssize_t wn) {
    return at + wn <= n && memcmp(b + at, what, wn) == 0;
}

/* status(op) -> 0 OK, 1 NOT_FOUND, or -1: not a plainly successful reply (the caller decodes it),
 * exactly as wire_chain.reply_status reads a reply in place. */
static PyObject *opmsg_status(OpMsgObject *s, PyObject *oparg) {
    long op = PyLong_AsLong(oparg);
    if (op == -1 && PyErr_Occurred()) return NULL;
    const char *b = s->buf + s->body_start;
    Py_ssize_t n = s->body_len;
    static const char ok_end[] = "\x01ok\x00\x00\x00\x00\x00\x00\x00\xf0?\x00";  /* 13 bytes */
    const Py_ssize_t ok_n = 13;
    long st = -1;
    if (n >= ok_n && memcmp(b + n - ok_n, ok_end, ok_n) == 0) {
        if (op == OP_READ) {
            if (has_at(b, n, 4, "\x03" "cursor\x00", 8) && has_at(b, n, 16, "\x04" "firstBatch\x00", 12))
                st = has_at(b, n, 28, "\x05\x00\x00\x00", 4) ? ST_NOT_FOUND : ST_OK;
        } else if (!memmem(b, n, "Error", 5)) {
            if (op == OP_INSERT) st = ST_OK;
            else if (has_at(b, n, 4, "\x10n\x00", 3))
                st = has_at(b, n, 7, "\x00\x00\x00\x00", 4) ? ST_NOT_FOUND : ST_OK;
        }
    }
    return PyLong_FromLong(st);
}

static PyMethodDef opmsg_methods[] = {
    {"feed", (PyCFunction)opmsg_feed, METH_O, "feed(data): bytes read from the connection."},
    {"next", (PyCFunction)opmsg_next, METH_NOARGS,
     "next() -> None (no whole message yet), or the next message's responseTo (an impossible id, -2**40, for a "
     "message without a kind-0 OP_MSG body)."},
    {"body", (PyCFunction)opmsg_body, METH_NOARGS, "body() -> the BSON body of the message next() last framed."},
    {"status", (PyCFunction)opmsg_status, METH_O,
     "status(op) -> 0 OK, 1 NOT_FOUND, -1 (decode it) for the last body, as wire_chain.reply_status reads it."},
    {NULL}};

static PyTypeObject OpMsgType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ycsbctl._native.OpMsgReader",
    .tp_basicsize = sizeof(OpMsgObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "MongoDB OP_MSG replies framed, and the plain ones judged, without copying them into Python.",
    .tp_new = opmsg_new,
    .tp_dealloc = (destructor)opmsg_dealloc,
    .tp_methods = opmsg_methods,
};

static PyMethodDef methods[] = {
    {"fnvhash64", fnvhash64_one, METH_O, "fnvhash64(n) -> YCSB's fnvhash64 of one int."},
    {"fnv64_into", fnv64_into, METH_VARARGS, "fnv64_into(src, dst): dst[i] = YCSB fnvhash64(src[i]) (int64 buffers)."},
    {"scramble_into", scramble_into, METH_VARARGS,
     "scramble_into(src, dst, lo, itemcount): dst[i] = lo + fnvhash64(src[i]) % itemcount."},
    {"key_names", key_names, METH_VARARGS,
     "key_names(nums, ordered, zeropadding, start, stop) -> [b'user…'] for nums[start:stop] (hashed unless ordered)."},
    {"run_basic", run_basic, METH_VARARGS,
     "run_basic(ops, keys, keynums, wfs, start, end, record, values, ack, deadline_ns) -> operations done "
     "(basic://'s unpaced chain)."},
    {"java_hash", java_hash, METH_O, "java_hash(key) -> Java String.hashCode of an ASCII key (signed 32-bit)."},
    {NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_native", "ycsbctl's compiled per-operation core.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__native(void) {
    if (PyType_Ready(&RecordType) < 0 || PyType_Ready(&SkimmerType) < 0 || PyType_Ready(&OpMsgType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    ProtocolError = PyErr_NewException("ycsbctl._native.ProtocolError", PyExc_ValueError, NULL);
    Py_INCREF(&RecordType);
    Py_INCREF(&SkimmerType);
    Py_INCREF(&OpMsgType);
    if (PyModule_AddObject(m, "Record", (PyObject *)&RecordType) < 0 ||
        PyModule_AddObject(m, "OpMsgReader", (PyObject *)&OpMsgType) < 0 ||
        PyModule_AddObject(m, "Skimmer", (PyObject *)&SkimmerType) < 0 ||
        PyModule_AddObject(m, "ProtocolError", ProtocolError) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
