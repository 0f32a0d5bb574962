// Package timeexpr finds the time phrase of a search query, in English or
// Chinese, and reads it as a half-open range of calendar time, without a
// language model and without guessing.
//
// The full grammar, its defaults and its refusals are in docs/time.md.
package timeexpr
