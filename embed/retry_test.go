package embed

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// sleepRecorder replaces Retry.Sleep: it records each wait and returns at
// once, unless ctx is already done.
type sleepRecorder struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleepRecorder) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

// script returns an op that fails with errs in turn, then succeeds, and a
// pointer to the number of calls made.
func script(errs ...error) (func(context.Context) error, *int) {
	n := 0
	return func(context.Context) error {
		n++
		if n <= len(errs) {
			return errs[n-1]
		}
		return nil
	}, &n
}

func TestRetryDo(t *testing.T) {
	rate := func(after time.Duration) error { return NewHTTPError("p", 429, "slow down", after) }
	srv := NewHTTPError("p", 503, "busy", 0)
	unauth := NewHTTPError("p", 401, "bad key", 0)
	notFound := NewHTTPError("p", 404, "no such model", 0)
	down := ClassifyTransport(context.Background(), errUnreachableForTest)

	tests := []struct {
		name      string
		retry     Retry
		errs      []error
		wantCalls int
		wantErr   error // nil: success
		wantWaits []time.Duration
	}{
		{name: "success first time", wantCalls: 1},
		{name: "429 with Retry-After then success", errs: []error{rate(1500 * time.Millisecond)},
			wantCalls: 2, wantWaits: []time.Duration{1500 * time.Millisecond}},
		{name: "429 forever", errs: []error{rate(time.Second), rate(time.Second), rate(time.Second), rate(time.Second), rate(time.Second)},
			wantCalls: 4, wantErr: ErrRateLimited, wantWaits: []time.Duration{time.Second, time.Second, time.Second}},
		{name: "429 forever, 2 attempts", retry: Retry{MaxAttempts: 2}, errs: []error{rate(time.Second), rate(time.Second), rate(time.Second)},
			wantCalls: 2, wantErr: ErrRateLimited, wantWaits: []time.Duration{time.Second}},
		{name: "no retries", retry: Retry{MaxAttempts: 1}, errs: []error{srv},
			wantCalls: 1, wantErr: ErrServer},
		{name: "5xx twice then success", errs: []error{srv, srv}, wantCalls: 3},
		{name: "unreachable twice then success", errs: []error{down, down}, wantCalls: 3},
		{name: "401 not retried", errs: []error{unauth}, wantCalls: 1, wantErr: ErrUnauthorized},
		{name: "404 not retried", errs: []error{notFound}, wantCalls: 1, wantErr: notFound},
		{name: "bad response not retried", errs: []error{ErrBadResponse}, wantCalls: 1, wantErr: ErrBadResponse},
		{name: "Retry-After beyond MaxWait", retry: Retry{MaxWait: 10 * time.Second}, errs: []error{rate(time.Minute)},
			wantCalls: 1, wantErr: ErrRateLimited},
		{name: "Retry-After equal to MaxWait", retry: Retry{MaxWait: 10 * time.Second}, errs: []error{rate(10 * time.Second)},
			wantCalls: 2, wantWaits: []time.Duration{10 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &sleepRecorder{}
			r := tt.retry
			r.Sleep = rec.sleep
			op, calls := script(tt.errs...)
			err := r.Do(context.Background(), op)
			if tt.wantErr == nil && err != nil {
				t.Fatalf("Do: %v", err)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Fatalf("Do = %v, want %v", err, tt.wantErr)
			}
			if *calls != tt.wantCalls {
				t.Errorf("op called %d times, want %d", *calls, tt.wantCalls)
			}
			if tt.wantWaits != nil && !equalDurations(rec.waits, tt.wantWaits) {
				t.Errorf("waits = %v, want %v", rec.waits, tt.wantWaits)
			}
			if len(rec.waits) != *calls-1 {
				t.Errorf("%d waits for %d calls", len(rec.waits), *calls)
			}
		})
	}
}

var errUnreachableForTest = &netTimeout{}

// netTimeout is a net.Error, as a dial failure is.
type netTimeout struct{}

func (*netTimeout) Error() string   { return "i/o timeout" }
func (*netTimeout) Timeout() bool   { return true }
func (*netTimeout) Temporary() bool { return true }

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestRetryBackoffDoublesWithinJitterAndCap(t *testing.T) {
	rec := &sleepRecorder{}
	r := Retry{MaxAttempts: 7, BaseDelay: 100 * time.Millisecond, MaxDelay: 1 * time.Second, Sleep: rec.sleep}
	srv := NewHTTPError("p", 500, "", 0)
	op, _ := script(srv, srv, srv, srv, srv, srv, srv)
	if err := r.Do(context.Background(), op); !errors.Is(err, ErrServer) {
		t.Fatalf("Do = %v, want ErrServer", err)
	}
	// Nominal delays: 100, 200, 400, 800, 1000 (capped), 1000 ms; each wait
	// is drawn from [nominal/2, nominal].
	nominal := []time.Duration{100, 200, 400, 800, 1000, 1000}
	if len(rec.waits) != len(nominal) {
		t.Fatalf("waits = %v, want %d of them", rec.waits, len(nominal))
	}
	for i, w := range rec.waits {
		hi := nominal[i] * time.Millisecond
		if w < hi/2 || w > hi {
			t.Errorf("wait %d = %v, want within [%v, %v]", i, w, hi/2, hi)
		}
	}
}

func TestRetryDoesNotWaitPastDeadline(t *testing.T) {
	rec := &sleepRecorder{}
	r := Retry{Sleep: rec.sleep}
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	op, calls := script(NewHTTPError("p", 429, "", 2*time.Hour))
	// MaxWait allows two hours, but the context ends in one.
	r.MaxWait = 3 * time.Hour
	err := r.Do(ctx, op)
	if !errors.Is(err, ErrRateLimited) || *calls != 1 || len(rec.waits) != 0 {
		t.Fatalf("Do = %v after %d calls and waits %v; want ErrRateLimited, 1 call, no wait", err, *calls, rec.waits)
	}
}

func TestRetryStopsWhenContextEndsDuringWait(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	op := func(context.Context) error {
		n++
		// The caller gives up while Do waits on its real, hour-long timer.
		time.AfterFunc(10*time.Millisecond, cancel)
		return NewHTTPError("p", 503, "", 0)
	}
	done := make(chan error, 1)
	go func() { done <- Retry{BaseDelay: time.Hour, MaxDelay: time.Hour}.Do(ctx, op) }()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrServer) {
			t.Errorf("Do = %v, want context.Canceled wrapping the last ErrServer", err)
		}
	case <-time.After(30 * time.Second): // a hang guard, not a timing assertion
		t.Fatal("Do kept waiting after the context was canceled")
	}
	if n != 1 {
		t.Errorf("op called %d times, want 1", n)
	}
}

func TestRetryReturnsOpErrorOnceContextDone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec := &sleepRecorder{}
	op, calls := script(ClassifyTransport(ctx, errUnreachableForTest))
	err := Retry{Sleep: rec.sleep}.Do(ctx, op)
	if !errors.Is(err, context.Canceled) || *calls != 1 || len(rec.waits) != 0 {
		t.Errorf("Do = %v after %d calls; want context.Canceled after 1 call, no wait", err, *calls)
	}
}

func TestRetryValidate(t *testing.T) {
	for _, r := range []Retry{{MaxAttempts: -1}, {BaseDelay: -1}, {MaxDelay: -1}, {MaxWait: -1}} {
		if err := r.Validate(); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v.Validate() = %v, want ErrConfig", r, err)
		}
	}
	if err := (Retry{}).Validate(); err != nil {
		t.Errorf("zero Retry: %v", err)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"  ", 0, false},
		{"0", 0, true},
		{"7", 7 * time.Second, true},
		{" 7 ", 7 * time.Second, true},
		{"0.25", 250 * time.Millisecond, true},
		{"-3", 0, false},
		{"NaN", 0, false},
		{"soon", 0, false},
		{"1e300", time.Duration(1<<63 - 1), true},
		{"Sat, 01 Mar 2025 12:00:30 GMT", 30 * time.Second, true},
		{"Saturday, 01-Mar-25 12:01:00 GMT", time.Minute, true}, // RFC 850
		{"Sat Mar  1 12:00:05 2025", 5 * time.Second, true},     // asctime
		{"Sat, 01 Mar 2025 11:00:00 GMT", 0, true},              // in the past
	}
	for _, tt := range tests {
		got, ok := ParseRetryAfter(tt.in, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
