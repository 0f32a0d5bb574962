// Package render writes recall's answers as text for people, exactly as
// the recall command prints them: a retrieve result with the evidence of
// each item (WriteResult), counted nouns (Plural), and optional terminal
// emphasis (Style); listings as `recall ls` prints them (WriteLong,
// WriteItems); the reports of an import (WriteImportReport), an export or
// backup (WriteUnreadable, WriteExportSummary) and a restore
// (WriteRestoreSummary).
//
// Everything stored that reaches the output (names, tags, content, matched
// terms) goes through service.Visible, so that a control character in a
// hand-edited file cannot drive the terminal. Machine-readable output is
// not here: service.WriteResultJSON and service.WriteJSON write the JSON.
//
//	res, req, err := m.Retrieve(ctx, service.RetrieveParams{Query: "想去海边玩"})
//	if err != nil {
//		return err
//	}
//	return render.WriteResult(os.Stdout, res, req.Budget, false, render.Style{})
package render
