package main

// The subset of BSON (bsonspec.org) that mongo-echo reads and writes: every
// element type a driver may send is skipped correctly, and values are kept as
// raw bytes, so stored documents come back byte for byte as they were sent.

import (
	"encoding/binary"
	"errors"
	"math"
)

const (
	tDouble   = 0x01
	tString   = 0x02
	tDocument = 0x03
	tArray    = 0x04
	tBinary   = 0x05
	tObjectID = 0x07
	tBool     = 0x08
	tDatetime = 0x09
	tNull     = 0x0A
	tRegex    = 0x0B
	tInt32    = 0x10
	tTimestmp = 0x11
	tInt64    = 0x12
	tDecimal  = 0x13
	tMinKey   = 0xFF
	tMaxKey   = 0x7F
)

var errBadBSON = errors.New("malformed BSON")

// elem is one element of a document: its type, name and raw value bytes.
type elem struct {
	typ  byte
	name string
	val  []byte
}

// doc is a parsed document: its elements in order (values share the parsed buffer).
type doc []elem

// parseDoc parses one document at the start of b; it returns the document and its length in bytes.
func parseDoc(b []byte) (doc, int, error) {
	if len(b) < 5 {
		return nil, 0, errBadBSON
	}
	n := int(int32(binary.LittleEndian.Uint32(b)))
	if n < 5 || n > len(b) || b[n-1] != 0 {
		return nil, 0, errBadBSON
	}
	d := make(doc, 0, 16)
	i := 4
	for i < n-1 {
		typ := b[i]
		i++
		j := i
		for j < n && b[j] != 0 {
			j++
		}
		if j >= n {
			return nil, 0, errBadBSON
		}
		name := string(b[i:j])
		i = j + 1
		size, err := valueSize(typ, b[i:n-1])
		if err != nil {
			return nil, 0, err
		}
		d = append(d, elem{typ, name, b[i : i+size]})
		i += size
	}
	if i != n-1 {
		return nil, 0, errBadBSON
	}
	return d, n, nil
}

// fixedSize is the value length of each fixed-size type; -1 for the others.
var fixedSize = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for typ, n := range map[byte]int8{tDouble: 8, tObjectID: 12, tBool: 1, tDatetime: 8, tNull: 0, tInt32: 4,
		tTimestmp: 8, tInt64: 8, tDecimal: 16, tMinKey: 0, tMaxKey: 0, 0x06: 0} {
		t[typ] = n
	}
	return t
}()

// valueSize is the length of a value of type typ at the start of b.
func valueSize(typ byte, b []byte) (int, error) {
	size := 0
	if s := fixedSize[typ]; s >= 0 {
		size = int(s)
	} else {
		switch typ {
		case tString, 0x0D, 0x0E: // string, JavaScript code, symbol
			if len(b) < 4 {
				return 0, errBadBSON
			}
			size = 4 + int(int32(binary.LittleEndian.Uint32(b)))
		case tDocument, tArray, 0x0F: // document, array, code with scope
			if len(b) < 4 {
				return 0, errBadBSON
			}
			size = int(int32(binary.LittleEndian.Uint32(b)))
		case tBinary:
			if len(b) < 4 {
				return 0, errBadBSON
			}
			size = 5 + int(int32(binary.LittleEndian.Uint32(b)))
		case tRegex: // two C strings
			k := 0
			for z := 0; z < 2; z++ {
				for k < len(b) && b[k] != 0 {
					k++
				}
				k++
			}
			size = k
		case 0x0C: // DBPointer
			if len(b) < 4 {
				return 0, errBadBSON
			}
			size = 4 + int(int32(binary.LittleEndian.Uint32(b))) + 12
		default:
			return 0, errBadBSON
		}
	}
	if size < 0 || size > len(b) {
		return 0, errBadBSON
	}
	return size, nil
}

// get returns the element named name (case-sensitive) and whether it is there.
func (d doc) get(name string) (elem, bool) {
	for _, e := range d {
		if e.name == name {
			return e, true
		}
	}
	return elem{}, false
}

// sub parses the element as a document (or array); nil when it is not one.
func (e elem) sub() doc {
	if e.typ != tDocument && e.typ != tArray {
		return nil
	}
	d, _, err := parseDoc(e.val)
	if err != nil {
		return nil
	}
	return d
}

// str is the element's string value ("" when it is not a string).
func (e elem) str() string {
	if e.typ != tString || len(e.val) < 5 {
		return ""
	}
	return string(e.val[4 : len(e.val)-1])
}

// num is the element's numeric (or boolean) value; ok is false for other types.
func (e elem) num() (float64, bool) {
	switch e.typ {
	case tDouble:
		return math.Float64frombits(binary.LittleEndian.Uint64(e.val)), true
	case tInt32:
		return float64(int32(binary.LittleEndian.Uint32(e.val))), true
	case tInt64:
		return float64(int64(binary.LittleEndian.Uint64(e.val))), true
	case tBool:
		if e.val[0] != 0 {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// truthy says whether a flag such as {singleBatch: true} or {upsert: 1} is set.
func (e elem) truthy() bool {
	v, ok := e.num()
	return ok && v != 0
}

// builder appends one document's elements; end() closes it.
type builder struct {
	b     []byte
	start int
}

func newBuilder(buf []byte) *builder {
	return &builder{b: append(buf, 0, 0, 0, 0), start: len(buf)}
}

func (w *builder) head(typ byte, name string) {
	w.b = append(w.b, typ)
	w.b = append(w.b, name...)
	w.b = append(w.b, 0)
}

func (w *builder) raw(typ byte, name string, val []byte) *builder {
	w.head(typ, name)
	w.b = append(w.b, val...)
	return w
}

func (w *builder) double(name string, v float64) *builder {
	w.head(tDouble, name)
	w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(v))
	return w
}

func (w *builder) int32(name string, v int32) *builder {
	w.head(tInt32, name)
	w.b = binary.LittleEndian.AppendUint32(w.b, uint32(v))
	return w
}

func (w *builder) int64(name string, v int64) *builder {
	w.head(tInt64, name)
	w.b = binary.LittleEndian.AppendUint64(w.b, uint64(v))
	return w
}

func (w *builder) datetime(name string, ms int64) *builder {
	w.head(tDatetime, name)
	w.b = binary.LittleEndian.AppendUint64(w.b, uint64(ms))
	return w
}

func (w *builder) boolean(name string, v bool) *builder {
	w.head(tBool, name)
	if v {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
	return w
}

func (w *builder) str(name, v string) *builder {
	w.head(tString, name)
	w.b = binary.LittleEndian.AppendUint32(w.b, uint32(len(v)+1))
	w.b = append(w.b, v...)
	w.b = append(w.b, 0)
	return w
}

// doc appends an embedded document (or, with typ tArray, an array) built by fill.
func (w *builder) doc(typ byte, name string, fill func(*builder)) *builder {
	w.head(typ, name)
	inner := newBuilder(w.b)
	fill(inner)
	w.b = inner.end()
	return w
}

// end writes the terminating byte and the length; it returns the buffer.
func (w *builder) end() []byte {
	w.b = append(w.b, 0)
	binary.LittleEndian.PutUint32(w.b[w.start:], uint32(len(w.b)-w.start))
	return w.b
}

// arrayKey is the name of an array's i-th element ("0", "1", …).
func arrayKey(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i)
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	k := len(b)
	for i > 0 {
		k--
		b[k] = byte('0' + i%10)
		i /= 10
	}
	return string(b[k:])
}
