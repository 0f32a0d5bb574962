package httpapi

import (
	"context"
	"log"
	"net"
	"net/http"
	"time"
)

// ShutdownTimeout is how long Serve, once its context is done, waits for
// requests in flight before it cuts them off.
const ShutdownTimeout = 10 * time.Second

// Serve answers HTTP requests on ln with handler (a Handler, or a page
// wrapping one) until ctx is done, then shuts down gracefully, as `recall
// serve` does: requests in flight get ShutdownTimeout to finish, then are
// cut off. The server gives a client 10 s to send its headers, a minute
// for the whole request, and closes connections idle for 2 minutes.
// logger (nil: the log package's) gets the server's errors and the
// shutdown lines. Serve returns nil after a shutdown, else the error that
// stopped the server; it closes ln either way.
func Serve(ctx context.Context, ln net.Listener, handler http.Handler, logger *log.Logger) error {
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          logger,
	}
	if logger == nil {
		logger = log.Default()
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}

	logger.Printf("shutting down")
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		logger.Printf("requests still running after %v are cut off", ShutdownTimeout)
		srv.Close()
	}
	<-served
	return nil
}
