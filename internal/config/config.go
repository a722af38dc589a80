// Package config lets library code name the fields of a run's configuration in its errors and
// advice without knowing how a front end spells them. A message refers to a field by its Go
// name (the field of a study's configuration or of runner.Session: "RatingGames", "Resume");
// Error and String write those names as they are, and a front end renders the same message
// with its own names: the CLI (cmd/fairplay) names each field by its flag through one table.
package config

import (
	"errors"
	"fmt"
	"strings"
)

// Namer gives the name a front end uses for a configuration field. arg is the placeholder of
// the field's value the message shows after the name ("N" in "{RandomOpening N}"), or "".
type Namer func(field, arg string) string

// Plain names a field by its Go name and leaves out the placeholder of its value.
func Plain(field, arg string) string { return field }

// Text is a message that may name configuration fields. Its format refers to a field as
// {Field}, or as {Field ARG} where a front end may show a placeholder of the value after the
// field's name; the rest of the format and its args are fmt.Sprintf's. An arg that is an error
// holding a FieldError is rendered with the same names.
type Text struct {
	format string
	args   []any
}

// Textf makes a Text.
func Textf(format string, args ...any) Text { return Text{format, args} }

// IsZero reports whether t is the empty Text.
func (t Text) IsZero() bool { return t.format == "" }

// String renders t with Plain names.
func (t Text) String() string { return t.Render(Plain) }

// Render writes t with the field names of name.
func (t Text) Render(name Namer) string {
	if name == nil {
		name = Plain
	}
	var b strings.Builder
	f := t.format
	for {
		i := strings.IndexByte(f, '{')
		if i < 0 {
			b.WriteString(f)
			break
		}
		b.WriteString(f[:i])
		j := strings.IndexByte(f[i:], '}')
		if j < 0 {
			b.WriteString(f[i:])
			break
		}
		field, arg, ok := parseRef(f[i+1 : i+j])
		if !ok {
			b.WriteByte('{')
			f = f[i+1:]
			continue
		}
		// A field name may hold no verb, but Sprintf runs after: keep its % literal.
		b.WriteString(strings.ReplaceAll(name(field, arg), "%", "%%"))
		f = f[i+j+1:]
	}
	args := make([]any, len(t.args))
	for i, a := range t.args {
		if err, ok := a.(error); ok {
			a = Rename(err, name)
		}
		args[i] = a
	}
	if len(args) == 0 {
		return strings.ReplaceAll(b.String(), "%%", "%")
	}
	return fmt.Sprintf(b.String(), args...)
}

// parseRef splits a reference "Field" or "Field ARG": Field a Go identifier starting with an
// upper-case letter, ARG one word.
func parseRef(s string) (field, arg string, ok bool) {
	field, arg, _ = strings.Cut(s, " ")
	if field == "" || field[0] < 'A' || field[0] > 'Z' || strings.ContainsAny(arg, " {}") {
		return "", "", false
	}
	for _, c := range field {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return "", "", false
		}
	}
	return field, arg, true
}

// errs returns the args of t that are errors.
func (t Text) errs() []error {
	var errs []error
	for _, a := range t.args {
		if err, ok := a.(error); ok {
			errs = append(errs, err)
		}
	}
	return errs
}

// FieldError is an error about a configuration's field: the field, the bad value (or which
// part of the field, "level 2") and why. Its message reads FIELD VALUE: REASON, or only
// REASON when Field is "" (an error that only names fields in its advice).
type FieldError struct {
	Field  string // the Go name of the field: "RatingGames"; "" for none
	Value  string // shown after the field's name; "" for none
	Reason Text
}

// Errorf makes a FieldError; format is a Text's.
func Errorf(field, value, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Value: value, Reason: Textf(format, args...)}
}

func (e *FieldError) Error() string { return e.Render(Plain) }

// Unwrap returns the errors among the reason's args (the causes).
func (e *FieldError) Unwrap() []error { return e.Reason.errs() }

// Render writes the error with the field names of name.
func (e *FieldError) Render(name Namer) string {
	if e.Field == "" {
		return e.Reason.Render(name)
	}
	head := name(e.Field, "")
	if e.Value != "" {
		head += " " + e.Value
	}
	if e.Reason.IsZero() {
		return head
	}
	return head + ": " + e.Reason.Render(name)
}

// Rename returns the message of err with the outermost FieldError in its chain (and those in
// its causes) rendered with name: the FieldError's own message is replaced in the whole, which
// holds it when the errors around it wrap it with %w.
func Rename(err error, name Namer) string {
	msg := err.Error()
	var fe *FieldError
	if !errors.As(err, &fe) {
		return msg
	}
	plain := fe.Error()
	if !strings.Contains(msg, plain) {
		return msg
	}
	return strings.Replace(msg, plain, fe.Render(name), 1)
}
