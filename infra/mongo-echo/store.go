package main

// The in-memory data: one map of documents per "db.collection", keyed by _id.

import (
	"sort"
	"strings"
	"sync"
)

// collection holds documents by _id key (see idKey) and, for range scans, the
// keys in order (sorted lazily: loads insert in random order, scans are rare).
type collection struct {
	docs   map[string]doc
	keys   []string
	sorted bool
}

// store is every collection, behind one lock (this server's work per command is tiny).
type store struct {
	mu    sync.Mutex
	colls map[string]*collection
}

func newStore() *store { return &store{colls: map[string]*collection{}} }

// coll returns the collection ns ("db.name"), created when create is true (else nil if absent).
func (s *store) coll(ns string, create bool) *collection {
	c := s.colls[ns]
	if c == nil && create {
		c = &collection{docs: map[string]doc{}, sorted: true}
		s.colls[ns] = c
	}
	return c
}

// dropDatabase removes every collection of database db.
func (s *store) dropDatabase(db string) {
	for ns := range s.colls {
		if strings.HasPrefix(ns, db+".") {
			delete(s.colls, ns)
		}
	}
}

// idKey is the map key of an _id value: strings order as strings (YCSB's keys);
// other types are kept apart by a 0x00 prefix and their type byte.
func idKey(e elem) string {
	if e.typ == tString {
		return e.str()
	}
	return "\x00" + string([]byte{e.typ}) + string(e.val)
}

func (c *collection) insert(key string, d doc) bool {
	if _, dup := c.docs[key]; dup {
		return false
	}
	c.docs[key] = d
	c.keys = append(c.keys, key)
	if n := len(c.keys); n > 1 && c.keys[n-2] > key {
		c.sorted = false
	}
	return true
}

func (c *collection) remove(key string) bool {
	if _, ok := c.docs[key]; !ok {
		return false
	}
	delete(c.docs, key)
	c.sortKeys()
	i := sort.SearchStrings(c.keys, key)
	c.keys = append(c.keys[:i], c.keys[i+1:]...)
	return true
}

func (c *collection) sortKeys() {
	if !c.sorted {
		sort.Strings(c.keys)
		c.sorted = true
	}
}

// from returns up to limit documents (0 = all) whose key is ≥ start, in key order.
func (c *collection) from(start string, limit int) []doc {
	c.sortKeys()
	var out []doc
	for i := sort.SearchStrings(c.keys, start); i < len(c.keys); i++ {
		if limit > 0 && len(out) >= limit {
			break
		}
		out = append(out, c.docs[c.keys[i]])
	}
	return out
}

// owned copies a document out of a request buffer so that it can be kept.
func owned(d doc) doc {
	size := 0
	for _, e := range d {
		size += len(e.val)
	}
	buf := make([]byte, 0, size)
	out := make(doc, len(d))
	for i, e := range d {
		buf = append(buf, e.val...)
		out[i] = elem{e.typ, e.name, buf[len(buf)-len(e.val) : len(buf) : len(buf)]}
	}
	return out
}

// set applies {$set: fields} to d, returning the new document (d is not modified:
// replies being written may still hold it).
func set(d doc, fields doc) doc {
	out := make(doc, len(d), len(d)+len(fields))
	copy(out, d)
	for _, f := range fields {
		found := false
		for i := range out {
			if out[i].name == f.name {
				out[i] = f
				found = true
				break
			}
		}
		if !found {
			out = append(out, f)
		}
	}
	return out
}
