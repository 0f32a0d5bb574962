package httpapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/store"
)

// Error is the JSON body of every failed request:
// {"error": "...", "field": "..."}, with the HTTP status.
type Error struct {
	Status  int    `json:"-"`
	Message string `json:"error"`
	Field   string `json:"field,omitempty"`
}

func (e *Error) Error() string { return e.Message }

// errorFor maps an error of the service, of a store or of decoding onto a
// status. It is the one place that does.
func errorFor(err error) *Error {
	var (
		ae *Error
		pe *service.ParamError
		fe *store.FieldError
	)
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.Is(err, service.ErrNoMatch), errors.Is(err, service.ErrAmbiguous):
		errors.As(err, &pe)
		return &Error{Status: http.StatusUnprocessableEntity, Field: pe.Field, Message: pe.Error()}
	case errors.As(err, &pe):
		return &Error{Status: http.StatusBadRequest, Field: pe.Field, Message: pe.Error()}
	case errors.As(err, &fe):
		return &Error{Status: http.StatusBadRequest, Field: fe.Field, Message: fe.Error()}
	case errors.Is(err, store.ErrInvalid):
		return &Error{Status: http.StatusBadRequest, Message: err.Error()}
	case errors.Is(err, service.ErrExists):
		return &Error{Status: http.StatusPreconditionFailed, Field: "If-None-Match", Message: err.Error()}
	case errors.Is(err, store.ErrNotFound):
		return &Error{Status: http.StatusNotFound, Message: err.Error()}
	case errors.Is(err, service.ErrUnavailable), errors.Is(err, store.ErrUnavailable):
		// A store out of reach, whichever layer noticed: the service (a
		// folder store's root gone, seen by Memory) or the backend itself
		// (a database down, a root folder gone mid-call).
		return &Error{Status: http.StatusServiceUnavailable, Message: err.Error()}
	case errors.Is(err, store.ErrClosed), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return &Error{Status: http.StatusServiceUnavailable, Message: "the server is shutting down: " + err.Error()}
	case service.Unreadable(err):
		return &Error{Status: http.StatusInternalServerError, Message: "the stored entry cannot be read: " + err.Error()}
	default:
		return &Error{Status: http.StatusInternalServerError, Message: err.Error()}
	}
}

// WriteError answers a request with err as the API answers errors: an
// *Error with its status, or the status the error's kind maps to (as
// errorFor), the body {"error": "...", "field": "..."}.
func WriteError(w http.ResponseWriter, err error) { writeError(w, err) }

func writeError(w http.ResponseWriter, err error) {
	ae := errorFor(err)
	writeValue(w, ae.Status, ae, "")
}

// writeValue encodes v as the CLI prints JSON and sends it; indent "" is
// one line.
func writeValue(w http.ResponseWriter, status int, v any, indent string) {
	var buf bytes.Buffer
	if err := service.WriteJSON(&buf, v, indent); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		fmt.Fprintf(&buf, "{\"error\":%q}\n", "encode response: "+err.Error())
	}
	writeBody(w, status, buf.Bytes())
}

func writeBody(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(body)
}

// decodeBody reads one JSON object into v, strictly: Content-Type
// application/json (so that no web page can send it without a CORS
// preflight), at most MaxBodyBytes, valid UTF-8 and no unpaired surrogate
// escapes (encoding/json would quietly replace either, and SPEC §1 wants
// them rejected), no unknown fields, nothing after the object.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); !isJSON(ct) {
		return &Error{Status: http.StatusUnsupportedMediaType, Field: "Content-Type",
			Message: fmt.Sprintf("request body must be application/json, got Content-Type %q", ct)}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &Error{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("request body is larger than %d bytes", mbe.Limit)}
		}
		return &Error{Status: http.StatusBadRequest, Message: "read request body: " + err.Error()}
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return &Error{Status: http.StatusBadRequest, Message: "request body is empty; send a JSON object"}
	}
	if err := service.DecodeParams(body, v); err != nil {
		var pe *service.ParamError
		errors.As(err, &pe)
		if errors.Is(err, service.ErrSurrogate) {
			return &Error{Status: http.StatusBadRequest, Message: "request body: " + pe.Reason}
		}
		if errors.As(err, &pe) && pe.Field == "" {
			return &Error{Status: http.StatusBadRequest, Message: "request body is " + pe.Reason}
		}
		return err
	}
	return nil
}
