package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// oneLine joins the lines of an error message (pgx puts each address it
// tried on its own line) so that a CLI prints one line.
func oneLine(err error) string {
	msg := strings.TrimSpace(err.Error())
	msg = strings.ReplaceAll(msg, ":\n\t", ": ")
	msg = strings.ReplaceAll(msg, "\n\t", "; ")
	msg = strings.ReplaceAll(msg, "\n", "; ")
	// The same failure is often listed once per attempt (TLS, then plain).
	parts := strings.Split(msg, "; ")
	kept := parts[:1]
	for _, p := range parts[1:] {
		if !strings.HasSuffix(kept[len(kept)-1], p) {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "; ")
}

// unavailable reports whether err means the database is out of reach
// rather than that it refused the request.
func unavailable(err error) bool {
	if err == nil {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case strings.HasPrefix(pgErr.Code, "08"), // connection exception
			pgErr.Code == "57P01", pgErr.Code == "57P02", pgErr.Code == "57P03": // shutdown, crash, cannot connect now
			return true
		}
		return false
	}
	var connErr *pgconn.ConnectError
	var netErr net.Error
	return errors.As(err, &connErr) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, net.ErrClosed) ||
		(errors.As(err, &netErr) && !errors.Is(err, context.DeadlineExceeded)) ||
		strings.Contains(err.Error(), "conn closed")
}

// wrapErr classifies err for the caller: ErrUnavailable for a database out
// of reach, the server's message for a refused statement, context errors
// as they are.
func (s *Store) wrapErr(err error) error {
	switch {
	case errors.Is(err, context.Canceled):
		return err
	case errors.Is(err, context.DeadlineExceeded):
		if unavailable(err) {
			return fmt.Errorf("%w: %s: %s%w", ErrUnavailable, s.where, oneLine(err), silent{err})
		}
		return err
	case unavailable(err):
		return fmt.Errorf("%w: %s: %s", ErrUnavailable, s.where, oneLine(err))
	}
	if pgErr, ok := err.(*pgconn.PgError); ok {
		return fmt.Errorf("postgres: %s (SQLSTATE %s)%w", pgErr.Message, pgErr.Code, silent{err})
	}
	return err
}

// silent wraps an error for errors.Is/As without adding to the message.
type silent struct{ err error }

func (s silent) Error() string { return "" }
func (s silent) Unwrap() error { return s.err }

// connectError turns the failure of Open's first round trip into one line:
// the server's own words for a refusal (a wrong password, a missing
// database), else pgx's (a wrong host or port).
func connectError(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && !unavailableCode(pgErr.Code) {
		return fmt.Errorf("cannot connect: %s: %s (SQLSTATE %s)%w", pgErr.Severity, pgErr.Message, pgErr.Code, silent{err})
	}
	return fmt.Errorf("cannot connect: %w: %s", ErrUnavailable, oneLine(err))
}

func unavailableCode(code string) bool {
	return strings.HasPrefix(code, "08") || strings.HasPrefix(code, "57P")
}

// retryable reports whether a statement failed for a reason that running
// it again in a new transaction may cure: a serialization failure or a
// deadlock (both possible when a transaction of recall's meets one written
// by hand), or a pooled connection found dead before anything was sent.
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "40001" || pgErr.Code == "40P01"
	}
	return pgconn.SafeToRetry(err) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// maxRetries bounds retry.
const maxRetries = 5

// retry runs fn, and again (after a short, growing, jittered pause) while
// it fails in a retryable way, until ctx ends.
func retry(ctx context.Context, fn func() error) error {
	pause := 5 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := fn()
		if err == nil || attempt >= maxRetries || !retryable(err) {
			return err
		}
		t := time.NewTimer(pause/2 + rand.N(pause))
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		pause *= 2
	}
}
