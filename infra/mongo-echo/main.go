// Command mongo-echo answers the MongoDB wire protocol from an in-memory map.
//
// It exists only to benchmark ycsbctl's MongoDB client path (bench/mongo_client.py):
// it answers the few commands ycsbctl sends (hello, ping, insert, find by _id
// or by an _id range, update with $set, delete, drop, count, dbStats …) with as
// little work as possible, so that a benchmark against it loads the client, not a
// server. It is not a database: no persistence, no indexes, no query language.
// See README.md.
//
// Usage:
//
//	mongo-echo [--listen 127.0.0.1:27017] [--version]
//
// Once the listener is bound, one line is printed to stdout:
//
//	mongo-echo listening on 127.0.0.1:27017
//
// SIGINT/SIGTERM stop it (exit 0). Exit codes: 1 startup failure, 2 bad usage,
// 3 listen address in use.
package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

const (
	versionLine = "mongo-echo 1 (in-memory OP_MSG responder for client benchmarks)"
	opReply     = 1
	opQuery     = 2004
	opMsg       = 2013
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to serve")
	showVersion := flag.Bool("version", false, "print the version and exit")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "mongo-echo: unexpected argument %q\n", flag.Arg(0))
		os.Exit(2)
	}
	if *showVersion {
		fmt.Println(versionLine)
		return
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintf(os.Stderr, "mongo-echo: %v\n", err)
		if errors.Is(err, syscall.EADDRINUSE) {
			os.Exit(3)
		}
		os.Exit(1)
	}
	fmt.Printf("mongo-echo listening on %s\n", ln.Addr())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		<-sig
		os.Exit(0)
	}()
	s := newStore()
	var ids atomic.Int64
	for {
		conn, err := ln.Accept()
		if err != nil {
			fmt.Fprintf(os.Stderr, "mongo-echo: accept: %v\n", err)
			continue
		}
		go serve(s, conn, ids.Add(1))
	}
}

// serve answers one connection's messages in order until it closes.
func serve(s *store, conn net.Conn, id int64) {
	connections.Add(1)
	defer connections.Add(-1)
	defer conn.Close()
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetNoDelay(true)
	}
	r := bufio.NewReaderSize(conn, 64*1024)
	w := bufio.NewWriterSize(conn, 64*1024)
	var msg, reply []byte
	for {
		var head [4]byte
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return
		}
		n := int(int32(binary.LittleEndian.Uint32(head[:])))
		if n < 16 || n > maxMessage {
			fmt.Fprintf(os.Stderr, "mongo-echo: bad message length %d; closing the connection\n", n)
			return
		}
		if cap(msg) < n {
			msg = make([]byte, n)
		}
		msg = msg[:n]
		copy(msg, head[:])
		if _, err := io.ReadFull(r, msg[4:]); err != nil {
			return
		}
		var ok bool
		reply, ok = handle(s, msg, id, reply[:0])
		if !ok {
			return
		}
		if reply == nil {
			continue // moreToCome: no reply wanted
		}
		if _, err := w.Write(reply); err != nil {
			return
		}
		if r.Buffered() == 0 { // pipelined requests are answered in one write
			if err := w.Flush(); err != nil {
				return
			}
		}
	}
}

// handle answers one message (OP_MSG, or the OP_QUERY a driver's first hello may use);
// it returns the whole reply message, or nil when none is due; false for a message it
// cannot answer (the connection is then closed: the client must not wait for a reply).
func handle(s *store, msg []byte, connID int64, out []byte) ([]byte, bool) {
	requestID := binary.LittleEndian.Uint32(msg[4:])
	opcode := binary.LittleEndian.Uint32(msg[12:])
	out = append(out, make([]byte, 16)...) // header, filled in below
	var body []byte
	switch opcode {
	case opMsg:
		cmd, flags, err := parseMsg(msg)
		out = binary.LittleEndian.AppendUint32(out, 0) // flagBits
		out = append(out, 0)                           // kind-0 section
		if err != nil {
			body = fail(out, 2, "BadValue", err.Error())
		} else {
			body = s.command(cmd, connID, out)
		}
		if flags&2 != 0 { // moreToCome: the client wants no reply
			return nil, true
		}
	case opQuery:
		cmd, err := parseQuery(msg)
		out = binary.LittleEndian.AppendUint32(out, 0) // responseFlags
		out = binary.LittleEndian.AppendUint64(out, 0) // cursorID
		out = binary.LittleEndian.AppendUint32(out, 0) // startingFrom
		out = binary.LittleEndian.AppendUint32(out, 1) // numberReturned
		if err != nil {
			body = fail(out, 2, "BadValue", err.Error())
		} else {
			body = s.command(cmd, connID, out)
		}
		opcode = opReply
	default:
		fmt.Fprintf(os.Stderr, "mongo-echo: opcode %d is not supported (only OP_MSG, and OP_QUERY commands); closing the connection\n", opcode)
		return nil, false
	}
	binary.LittleEndian.PutUint32(body[0:], uint32(len(body)))
	binary.LittleEndian.PutUint32(body[4:], requestID) // our requestID: any number will do
	binary.LittleEndian.PutUint32(body[8:], requestID) // responseTo
	binary.LittleEndian.PutUint32(body[12:], opcode)
	return body, true
}

// parseMsg reads an OP_MSG: its kind-0 command document, with every kind-1
// document sequence (e.g. pymongo's "documents" of an insert) added as an array.
func parseMsg(msg []byte) (doc, uint32, error) {
	if len(msg) < 21 {
		return nil, 0, errBadBSON
	}
	flags := binary.LittleEndian.Uint32(msg[16:])
	end := len(msg)
	if flags&1 != 0 { // checksumPresent: a CRC-32C we do not verify
		end -= 4
	}
	var cmd doc
	for i := 20; i < end; {
		kind := msg[i]
		i++
		switch kind {
		case 0:
			d, n, err := parseDoc(msg[i:end])
			if err != nil {
				return nil, flags, err
			}
			cmd = append(d, cmd...)
			i += n
		case 1:
			if i+4 > end {
				return nil, flags, errBadBSON
			}
			size := int(int32(binary.LittleEndian.Uint32(msg[i:])))
			if size < 5 || i+size > end {
				return nil, flags, errBadBSON
			}
			seq := msg[i+4 : i+size]
			k := 0
			for k < len(seq) && seq[k] != 0 {
				k++
			}
			name := string(seq[:k])
			w := newBuilder(nil)
			for j, idx := k+1, 0; j < len(seq); idx++ {
				_, n, err := parseDoc(seq[j:])
				if err != nil {
					return nil, flags, err
				}
				w.raw(tDocument, arrayKey(idx), seq[j:j+n])
				j += n
			}
			cmd = append(cmd, elem{tArray, name, w.end()})
			i += size
		default:
			return nil, flags, fmt.Errorf("OP_MSG section kind %d is not supported", kind)
		}
	}
	return cmd, flags, nil
}

// parseQuery reads an OP_QUERY on "<db>.$cmd" as a command (with $db set).
func parseQuery(msg []byte) (doc, error) {
	i := 20
	k := i
	for k < len(msg) && msg[k] != 0 {
		k++
	}
	if k+9 > len(msg) {
		return nil, errBadBSON
	}
	coll := string(msg[i:k])
	d, _, err := parseDoc(msg[k+9:]) // skip the NUL, numberToSkip and numberToReturn
	if err != nil {
		return nil, err
	}
	if q, ok := d.get("$query"); ok {
		d = q.sub()
	}
	db, _, _ := cut(coll, '.')
	return append(d, elem{tString, "$db", stringValue(db)}), nil
}

// stringValue is the raw BSON value of a string (length, bytes, NUL).
func stringValue(v string) []byte {
	return append(append(binary.LittleEndian.AppendUint32(nil, uint32(len(v)+1)), v...), 0)
}

func cut(s string, sep byte) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
