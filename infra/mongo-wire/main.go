// Command mongo-wire serves the MongoDB wire protocol on a TCP address,
// backed by an embedded FerretDB (SQLite handler).
//
// It exists so that ycsbctl can benchmark its MongoDB binding without a real
// mongod: FerretDB is embedded through its public package
// github.com/FerretDB/FerretDB/ferretdb (building FerretDB's own cmd/ferretdb
// from the module cache panics on an empty build/version/version.txt).
//
// Usage:
//
//	mongo-wire [--listen 127.0.0.1:27017] [--data DIR] [--log-level warn] [--version]
//	           [--tls-cert-file CERT --tls-key-file KEY]
//
// With --tls-cert-file and --tls-key-file the --listen address speaks TLS only
// (FerretDB's TLS listener; clients are not asked for a certificate).
//
// When the listener is bound (connections are accepted from then on) one line
// is printed to stdout and flushed:
//
//	mongo-wire listening on 127.0.0.1:27017
//
// (followed by " (TLS)" when it speaks TLS).
//
// SIGINT/SIGTERM stop it cleanly (exit 0). Exit codes: 0 clean stop or
// --version, 1 startup failure, 2 bad usage, 3 listen address in use.
//
// Build it with infra/build-mongo-wire.sh: it builds against a copy of the
// FerretDB module with patch/ applied, a one-line fix that makes the SQLite
// backend use its _id index; see patch/README.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/FerretDB/FerretDB/build/version"
	"github.com/FerretDB/FerretDB/ferretdb"
)

const (
	ferretDBVersion = "v1.24.0" // keep in sync with go.mod
	versionLine     = "mongo-wire (FerretDB " + ferretDBVersion + " embedded, sqlite)"

	exitOK        = 0
	exitFailure   = 1
	exitUsage     = 2
	exitAddrInUse = 3
)

// sqliteIDIndexFix is set to "applied" (-ldflags -X) by infra/build-mongo-wire.sh
// when it builds against its patched copy of FerretDB (see patch/README.md).
// A plain `go build` leaves it empty: FerretDB then scans the whole table for
// every _id lookup, update and delete.
var sqliteIDIndexFix = ""

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mongo-wire", flag.ContinueOnError)
	fs.SetOutput(stderr)

	listen := fs.String("listen", "127.0.0.1:27017", "TCP `address` to serve the MongoDB wire protocol on (port 0 picks a free port)")
	data := fs.String("data", "", "SQLite data `directory` (created if missing); default: a fresh temporary directory removed on exit")
	logLevel := fs.String("log-level", "warn", "FerretDB log `level`: debug, info, warn, error or off")
	showVersion := fs.Bool("version", false, "print version and exit")
	tlsCert := fs.String("tls-cert-file", "", "server certificate `file` (PEM): --listen speaks TLS only (with --tls-key-file)")
	tlsKey := fs.String("tls-key-file", "", "server private key `file` (PEM) of --tls-cert-file")

	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: mongo-wire [--listen ADDR] [--data DIR] [--log-level LEVEL] [--version] [--tls-cert-file CERT --tls-key-file KEY]\n\n")
		fmt.Fprintf(stderr, "Serves the MongoDB wire protocol using embedded FerretDB %s with the SQLite backend.\n\n", ferretDBVersion)
		fs.PrintDefaults()
	}

	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}

		return exitUsage
	}

	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mongo-wire: unexpected arguments: %s\n", strings.Join(fs.Args(), " "))
		return exitUsage
	}

	if (*tlsCert == "") != (*tlsKey == "") {
		fmt.Fprintln(stderr, "mongo-wire: --tls-cert-file and --tls-key-file go together")
		return exitUsage
	}

	if *showVersion {
		fmt.Fprintln(stdout, versionLine)
		return exitOK
	}

	var stopping atomic.Bool

	logger, err := newLogger(*logLevel, stderr, &stopping)
	if err != nil {
		fmt.Fprintf(stderr, "mongo-wire: %s\n", err)
		return exitUsage
	}

	// FerretDB code paths that do not take the configured logger use the default one.
	slog.SetDefault(logger)

	if _, _, err = net.SplitHostPort(*listen); err != nil {
		fmt.Fprintf(stderr, "mongo-wire: invalid --listen address %q: %s\n", *listen, err)
		return exitUsage
	}

	dir := *data
	if dir == "" {
		if dir, err = os.MkdirTemp("", "mongo-wire-"); err != nil {
			fmt.Fprintf(stderr, "mongo-wire: cannot create temporary data directory: %s\n", err)
			return exitFailure
		}

		defer os.RemoveAll(dir)
	} else if err = os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintf(stderr, "mongo-wire: cannot create data directory: %s\n", err)
		return exitFailure
	}

	if dir, err = filepath.Abs(dir); err != nil {
		fmt.Fprintf(stderr, "mongo-wire: bad data directory: %s\n", err)
		return exitFailure
	}

	if sqliteIDIndexFix != "applied" {
		fmt.Fprintln(stderr, "mongo-wire: warning: built without the _id index patch "+
			"(use infra/build-mongo-wire.sh); every _id lookup/update/delete is a full table scan")
	}

	// Reported by buildInfo as ferretdbVersion; "unknown" otherwise when embedded.
	version.Get().Version = ferretDBVersion

	// Properly escaped "file:/abs/dir/" (FerretDB requires the trailing slash).
	sqliteURL := (&url.URL{Scheme: "file", Path: dir + "/", OmitHost: true}).String()

	// Signals are caught before the listener is bound so that a supervisor's
	// SIGTERM right after the readiness line is never lost.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// ferretdb.New binds the listener synchronously (net.Listen), so once it
	// returns the kernel already accepts connections.
	listener := ferretdb.ListenerConfig{TCP: *listen}
	suffix := ""
	if *tlsCert != "" {
		listener = ferretdb.ListenerConfig{TLS: *listen, TLSCertFile: *tlsCert, TLSKeyFile: *tlsKey}
		suffix = " (TLS)"
	}

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  listener,
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: sqliteURL,
	})
	if err != nil {
		if isAddrInUse(err) {
			fmt.Fprintf(stderr, "mongo-wire: cannot listen on %s: address already in use\n", *listen)
			return exitAddrInUse
		}

		fmt.Fprintf(stderr, "mongo-wire: %s\n", oneLine(err.Error()))
		return exitFailure
	}

	addr := *listen
	if u, uerr := url.Parse(f.MongoDBURI()); uerr == nil && u.Host != "" {
		addr = u.Host // actual address, e.g. when port 0 was requested
	}

	// os.Stdout is unbuffered; a single Write is one flushed line.
	fmt.Fprintf(stdout, "mongo-wire listening on %s%s\n", addr, suffix)
	logger.Info("mongo-wire started", slog.String("addr", addr), slog.String("data", dir))

	go func() {
		<-ctx.Done()
		stop() // a second SIGINT/SIGTERM kills the process immediately
		stopping.Store(true)
		logger.Info("mongo-wire shutting down")
	}()

	// Run returns after ctx is canceled, the listener is closed and all
	// connections (given up to 3 s to finish) and the backend are closed.
	if err = f.Run(ctx); err != nil {
		fmt.Fprintf(stderr, "mongo-wire: %s\n", oneLine(err.Error()))
		return exitFailure
	}

	return exitOK
}

// newLogger returns a text logger writing to w at the given level.
// Once stopping is set, expected shutdown noise is demoted (see demoteHandler).
func newLogger(level string, w io.Writer, stopping *atomic.Bool) (*slog.Logger, error) {
	var l slog.Level

	switch strings.ToLower(level) {
	case "debug":
		l = slog.LevelDebug
	case "info":
		l = slog.LevelInfo
	case "warn", "warning":
		l = slog.LevelWarn
	case "error":
		l = slog.LevelError
	case "off", "none", "quiet":
		return slog.New(slog.NewTextHandler(io.Discard, nil)), nil
	default:
		return nil, fmt.Errorf("invalid --log-level %q (want debug, info, warn, error or off)", level)
	}

	return slog.New(&demoteHandler{
		Handler:  slog.NewTextHandler(w, &slog.HandlerOptions{Level: l}),
		min:      l,
		stopping: stopping,
	}), nil
}

// demoteHandler logs FerretDB's dumps of error replies ("Response header: ...",
// "Response message: ...", logged at WARN for every reply with ok: 0, e.g. the
// endSessions that pymongo sends when a client closes) at INFO instead, so that
// the default warn level only shows real server problems. It also demotes a
// benign race logged when a client disconnects ("Failed to set deadline: ...
// use of closed network connection") and, during shutdown, "Connection
// stopped" warnings (FerretDB gives open client connections 3 s to finish,
// then times out idle ones with an error).
type demoteHandler struct {
	slog.Handler
	min      slog.Level
	stopping *atomic.Bool
}

func (h *demoteHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return level >= h.min && h.Handler.Enabled(ctx, level)
}

func (h *demoteHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level == slog.LevelWarn &&
		(strings.HasPrefix(r.Message, "Response header: ") || strings.HasPrefix(r.Message, "Response message:") ||
			(r.Message == "Connection stopped" && h.stopping.Load()) ||
			(strings.HasPrefix(r.Message, "Failed to set deadline") && strings.Contains(r.Message, "use of closed"))) {
		if slog.LevelInfo < h.min {
			return nil
		}

		r.Level = slog.LevelInfo
	}

	return h.Handler.Handle(ctx, r)
}

func (h *demoteHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &demoteHandler{Handler: h.Handler.WithAttrs(attrs), min: h.min, stopping: h.stopping}
}

func (h *demoteHandler) WithGroup(name string) slog.Handler {
	return &demoteHandler{Handler: h.Handler.WithGroup(name), min: h.min, stopping: h.stopping}
}

// isAddrInUse reports whether err is a bind failure because the address is taken.
// FerretDB formats the underlying error with %s, so errors.Is cannot see it.
func isAddrInUse(err error) bool {
	return errors.Is(err, syscall.EADDRINUSE) || strings.Contains(err.Error(), "address already in use")
}

// oneLine collapses a possibly multi-line message to a single line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
