package main

// The commands ycsbctl sends (its wire binding, pymongo's binding, the admin and
// readiness code) and what a driver sends on its own (hello, endSessions …).

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"
)

const (
	maxBSON     = 16 * 1024 * 1024
	maxMessage  = 48_000_000
	maxWireVers = 21 // MongoDB 7.0: OP_MSG, and what pymongo 4.x requires
)

var (
	started     = time.Now()
	connections atomic.Int64
	opcounters  [4]atomic.Int64 // insert, query, update, delete
)

// command runs one command document (its kind-1 sequences already merged in)
// and appends the reply document to out.
func (s *store) command(cmd doc, connID int64, out []byte) []byte {
	if len(cmd) == 0 {
		return fail(out, 59, "CommandNotFound", "empty command")
	}
	name := strings.ToLower(cmd[0].name)
	db := "test"
	if e, ok := cmd.get("$db"); ok {
		db = e.str()
	}
	ns := db + "." + cmd[0].str()
	switch name {
	case "hello", "ismaster":
		w := newBuilder(out)
		if name == "hello" {
			w.boolean("isWritablePrimary", true)
		} else {
			w.boolean("ismaster", true)
		}
		w.boolean("helloOk", true).int32("maxBsonObjectSize", maxBSON).int32("maxMessageSizeBytes", maxMessage).
			int32("maxWriteBatchSize", 100000).datetime("localTime", time.Now().UnixMilli()).
			int32("logicalSessionTimeoutMinutes", 30).int64("connectionId", connID).
			int32("minWireVersion", 0).int32("maxWireVersion", maxWireVers).boolean("readOnly", false)
		return w.double("ok", 1).end()
	case "ping", "endsessions", "killcursors", "create", "createindexes", "getlasterror", "logout":
		return newBuilder(out).double("ok", 1).end()
	case "buildinfo":
		return newBuilder(out).str("version", "7.0.0-mongo-echo").
			str("gitVersion", "mongo-echo: an in-memory responder for client benchmarks, not MongoDB").
			doc(tArray, "versionArray", func(a *builder) { a.int32("0", 7).int32("1", 0).int32("2", 0).int32("3", 0) }).
			doc(tArray, "modules", func(*builder) {}).int32("maxBsonObjectSize", maxBSON).double("ok", 1).end()
	case "getcmdlineopts":
		return newBuilder(out).doc(tArray, "argv", func(a *builder) {
			for i, arg := range os.Args {
				a.str(arrayKey(i), arg)
			}
		}).doc(tDocument, "parsed", func(*builder) {}).double("ok", 1).end()
	case "serverstatus":
		return newBuilder(out).str("host", "mongo-echo").str("version", "7.0.0-mongo-echo").str("process", "mongo-echo").
			double("uptime", time.Since(started).Seconds()).
			doc(tDocument, "connections", func(c *builder) { c.int32("current", int32(connections.Load())) }).
			doc(tDocument, "opcounters", func(c *builder) {
				for i, n := range []string{"insert", "query", "update", "delete"} {
					c.int64(n, opcounters[i].Load())
				}
			}).
			doc(tDocument, "storageEngine", func(c *builder) { c.str("name", "mongo-echo (in-memory map)") }).
			double("ok", 1).end()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch name {
	case "insert":
		return s.insert(ns, cmd, out)
	case "update":
		return s.update(ns, cmd, out)
	case "delete":
		return s.delete(ns, cmd, out)
	case "find":
		return s.find(ns, cmd, out)
	case "count":
		return s.count(ns, cmd, out)
	case "drop":
		delete(s.colls, ns)
		return newBuilder(out).str("ns", ns).int32("nIndexesWas", 1).double("ok", 1).end()
	case "dropdatabase":
		s.dropDatabase(db)
		return newBuilder(out).str("dropped", db).double("ok", 1).end()
	case "dbstats":
		return s.dbStats(db, out)
	case "listcollections":
		return s.listCollections(db, out)
	}
	return fail(out, 59, "CommandNotFound", fmt.Sprintf("no such command: '%s' (mongo-echo answers only what ycsbctl sends)", cmd[0].name))
}

func fail(out []byte, code int32, codeName, msg string) []byte {
	return newBuilder(out).double("ok", 0).str("errmsg", msg).int32("code", code).str("codeName", codeName).end()
}

// idFilter reads {_id: v} or {_id: {$gte: v}}; op is "eq", "gte" or "all" ({}); ok is false otherwise.
func idFilter(e elem, present bool) (key string, op string, ok bool) {
	q := e.sub()
	if !present || len(q) == 0 {
		return "", "all", true
	}
	if len(q) != 1 || q[0].name != "_id" {
		return "", "", false
	}
	if q[0].typ == tDocument {
		cond := q[0].sub()
		if len(cond) == 1 && cond[0].name == "$gte" && cond[0].typ == tString {
			return cond[0].str(), "gte", true
		}
		if len(cond) == 1 && cond[0].name == "$eq" {
			return idKey(cond[0]), "eq", true
		}
		return "", "", false
	}
	return idKey(q[0]), "eq", true
}

const unsupported = "mongo-echo supports only the filters {}, {_id: v} and {_id: {$gte: v}}"

func (s *store) insert(ns string, cmd doc, out []byte) []byte {
	docs, _ := cmd.get("documents")
	c := s.coll(ns, true)
	n := 0
	var errs [][3]any // index, code, message
	ordered := true
	if o, ok := cmd.get("ordered"); ok {
		ordered = o.truthy()
	}
	for i, e := range docs.sub() {
		d := e.sub()
		id, ok := d.get("_id")
		switch {
		case !ok:
			errs = append(errs, [3]any{i, int32(2), "mongo-echo needs an _id in every document"})
		case !c.insert(idKey(id), owned(d)):
			errs = append(errs, [3]any{i, int32(11000), fmt.Sprintf("E11000 duplicate key error collection: %s index: _id_", ns)})
		default:
			n++
			opcounters[0].Add(1)
			continue
		}
		if ordered {
			break
		}
	}
	return writeReply(out, n, -1, errs, nil)
}

func writeReply(out []byte, n, nModified int, errs [][3]any, upserted []elem) []byte {
	w := newBuilder(out).int32("n", int32(n))
	if nModified >= 0 {
		w.int32("nModified", int32(nModified))
	}
	if len(upserted) > 0 {
		w.doc(tArray, "upserted", func(a *builder) {
			for i, id := range upserted {
				a.doc(tDocument, arrayKey(i), func(u *builder) { u.int32("index", int32(i)).raw(id.typ, "_id", id.val) })
			}
		})
	}
	if len(errs) > 0 {
		w.doc(tArray, "writeErrors", func(a *builder) {
			for i, e := range errs {
				a.doc(tDocument, arrayKey(i), func(we *builder) {
					we.int32("index", int32(e[0].(int))).int32("code", e[1].(int32)).str("errmsg", e[2].(string))
				})
			}
		})
	}
	return w.double("ok", 1).end()
}

func (s *store) update(ns string, cmd doc, out []byte) []byte {
	ups, _ := cmd.get("updates")
	c := s.coll(ns, true)
	n, modified := 0, 0
	var errs [][3]any
	var upserted []elem
	for i, e := range ups.sub() {
		u := e.sub()
		q, qok := u.get("q")
		key, op, ok := idFilter(q, qok)
		if !ok || op != "eq" {
			errs = append(errs, [3]any{i, int32(2), "mongo-echo updates only by {_id: v}"})
			break
		}
		spec, _ := u.get("u")
		change := spec.sub()
		isSet := len(change) > 0 && strings.HasPrefix(change[0].name, "$")
		var fields doc
		if isSet {
			if len(change) != 1 || change[0].name != "$set" {
				errs = append(errs, [3]any{i, int32(2), "mongo-echo supports only $set or a replacement document"})
				break
			}
			fields = owned(change[0].sub())
		}
		old, found := c.docs[key]
		upsert, _ := u.get("upsert")
		switch {
		case found && isSet:
			c.docs[key] = set(old, fields)
		case found:
			idElem, _ := old.get("_id")
			c.docs[key] = set(doc{idElem}, owned(change))
		case upsert.truthy():
			idElem, _ := q.sub().get("_id")
			base := owned(doc{idElem})
			if isSet {
				c.insert(key, set(base, fields))
			} else {
				c.insert(key, set(base, owned(change)))
			}
			upserted = append(upserted, base[0])
			n++
			continue
		default:
			continue
		}
		n++
		modified++
		opcounters[2].Add(1)
	}
	return writeReply(out, n, modified, errs, upserted)
}

func (s *store) delete(ns string, cmd doc, out []byte) []byte {
	dels, _ := cmd.get("deletes")
	c := s.coll(ns, false)
	n := 0
	var errs [][3]any
	for i, e := range dels.sub() {
		q, qok := e.sub().get("q")
		key, op, ok := idFilter(q, qok)
		if !ok || op != "eq" {
			errs = append(errs, [3]any{i, int32(2), "mongo-echo deletes only by {_id: v}"})
			break
		}
		if c != nil && c.remove(key) {
			n++
			opcounters[3].Add(1)
		}
	}
	return writeReply(out, n, -1, errs, nil)
}

// matching returns the documents of ns that a find or count filter selects, in _id order.
func (s *store) matching(ns string, filter elem, present bool, limit int) ([]doc, bool) {
	key, op, ok := idFilter(filter, present)
	if !ok {
		return nil, false
	}
	c := s.coll(ns, false)
	if c == nil {
		return nil, true
	}
	switch op {
	case "eq":
		if d, found := c.docs[key]; found {
			return []doc{d}, true
		}
		return nil, true
	case "gte":
		return c.from(key, limit), true
	}
	return c.from("", limit), true
}

func intOf(d doc, name string) int {
	if e, ok := d.get(name); ok {
		if v, ok := e.num(); ok {
			if v < 0 {
				v = -v // legacy negative limits: a single batch
			}
			return int(v)
		}
	}
	return 0
}

func (s *store) find(ns string, cmd doc, out []byte) []byte {
	opcounters[1].Add(1)
	filter, present := cmd.get("filter")
	if sortSpec, ok := cmd.get("sort"); ok {
		if sd := sortSpec.sub(); len(sd) > 1 || (len(sd) == 1 && (sd[0].name != "_id" || !sd[0].truthy())) {
			return fail(out, 2, "BadValue", "mongo-echo sorts only by {_id: 1}")
		}
	}
	docs, ok := s.matching(ns, filter, present, intOf(cmd, "limit"))
	if !ok {
		return fail(out, 2, "BadValue", unsupported)
	}
	var include map[string]bool
	withID := true
	if p, ok := cmd.get("projection"); ok {
		for _, f := range p.sub() {
			if f.name == "_id" {
				withID = f.truthy()
				continue
			}
			if !f.truthy() {
				return fail(out, 2, "BadValue", "mongo-echo supports only inclusion projections")
			}
			if include == nil {
				include = map[string]bool{}
			}
			include[f.name] = true
		}
	}
	w := newBuilder(out)
	w.doc(tDocument, "cursor", func(cur *builder) {
		cur.doc(tArray, "firstBatch", func(a *builder) {
			for i, d := range docs {
				a.doc(tDocument, arrayKey(i), func(o *builder) {
					for _, e := range d {
						if (e.name == "_id" && withID) || (e.name != "_id" && (include == nil || include[e.name])) {
							o.raw(e.typ, e.name, e.val)
						}
					}
				})
			}
		}).int64("id", 0).str("ns", ns)
	})
	return w.double("ok", 1).end()
}

func (s *store) count(ns string, cmd doc, out []byte) []byte {
	filter, present := cmd.get("query")
	n := 0
	if key, op, ok := idFilter(filter, present); !ok {
		return fail(out, 2, "BadValue", unsupported)
	} else if c := s.coll(ns, false); c != nil {
		switch op {
		case "all":
			n = len(c.docs)
		case "eq":
			if _, found := c.docs[key]; found {
				n = 1
			}
		default:
			n = len(c.from(key, 0))
		}
	}
	return newBuilder(out).int32("n", int32(n)).double("ok", 1).end()
}

func (s *store) dbStats(db string, out []byte) []byte {
	colls, objects, size := 0, 0, 0
	for ns, c := range s.colls {
		if strings.HasPrefix(ns, db+".") {
			colls++
			objects += len(c.docs)
			for _, d := range c.docs {
				for _, e := range d {
					size += len(e.name) + 2 + len(e.val)
				}
			}
		}
	}
	return newBuilder(out).str("db", db).int32("collections", int32(colls)).int64("objects", int64(objects)).
		double("dataSize", float64(size)).double("storageSize", float64(size)).int32("indexes", int32(colls)).
		double("ok", 1).end()
}

func (s *store) listCollections(db string, out []byte) []byte {
	w := newBuilder(out)
	w.doc(tDocument, "cursor", func(cur *builder) {
		cur.doc(tArray, "firstBatch", func(a *builder) {
			i := 0
			for ns := range s.colls {
				if name, ok := strings.CutPrefix(ns, db+"."); ok {
					a.doc(tDocument, arrayKey(i), func(o *builder) { o.str("name", name).str("type", "collection") })
					i++
				}
			}
		}).int64("id", 0).str("ns", db+".$cmd.listCollections")
	})
	return w.double("ok", 1).end()
}
