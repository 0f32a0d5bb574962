package setup_test

import (
	"errors"
	"testing"

	"github.com/recallhq/recall/retrieve"
	"github.com/recallhq/recall/service"
	"github.com/recallhq/recall/setup"
)

func defaults() setup.Retrieve {
	return setup.Retrieve{Limit: retrieve.DefaultLimit, Budget: retrieve.DefaultBudget, MinScore: service.DefaultMinScore}
}

func TestRetrieveParams(t *testing.T) {
	p, err := defaults().Params("sea")
	if err != nil {
		t.Fatal(err)
	}
	if p.Query != "sea" || *p.Limit != retrieve.DefaultLimit || *p.BudgetTokens != retrieve.DefaultBudget || !*p.ExpandLinks || p.MinScore != nil || p.Zone != nil {
		t.Errorf("defaults: %+v", p)
	}
	// The defaults give the same request as the service's own defaults.
	got, err := p.Request()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := service.RetrieveParams{Query: "sea"}.Request()
	if got.Limit != want.Limit || got.Budget != want.Budget || got.NoLinks != want.NoLinks {
		t.Errorf("request %+v, want %+v", got, want)
	}

	r := defaults()
	r.NoBudget, r.NoLinks, r.Explain, r.MinScore = true, true, true, -1
	r.Categories, r.Tags = []string{"notes"}, []string{"x"}
	r.Time, r.NoTime = setup.Time{After: "2024-05-01", TZ: "Asia/Shanghai"}, true
	r.IncludeSuperseded, r.IncludeExpired = true, true
	p, err = r.Params("")
	if err != nil {
		t.Fatal(err)
	}
	if *p.BudgetTokens != 0 || *p.ExpandLinks || !p.Explain || p.MinScore == nil || *p.MinScore != -1 ||
		p.Categories[0] != "notes" || p.Tags[0] != "x" || p.After != "2024-05-01" || !p.NoTime ||
		p.Zone == nil || p.Zone.String() != "Asia/Shanghai" || !p.IncludeSuperseded || !p.IncludeExpired {
		t.Errorf("every flag: %+v", p)
	}
	// The parameters do not alias the settings.
	r.Limit = 5
	p, _ = r.Params("x")
	r.Limit = 7
	if *p.Limit != 5 {
		t.Errorf("limit %d, want 5", *p.Limit)
	}
}

func TestRetrieveParamsErrors(t *testing.T) {
	for _, c := range []struct {
		edit    func(*setup.Retrieve)
		setting string
		msg     string
	}{
		{func(r *setup.Retrieve) { r.Limit = 0 }, "--limit", "--limit must be between 1 and 1000, got 0"},
		{func(r *setup.Retrieve) { r.Limit = service.MaxLimit + 1 }, "--limit", "--limit must be between 1 and 1000, got 1001"},
		{func(r *setup.Retrieve) { r.NoBudget, r.BudgetGiven = true, true }, "--budget", "--budget and --no-budget exclude each other"},
		{func(r *setup.Retrieve) { r.Budget = 0 }, "--budget", "--budget must be at least 1, got 0 (use --no-budget for none)"},
		{func(r *setup.Retrieve) { r.Time.TZ = "Mars/Olympus" }, "--tz", `--tz "Mars/Olympus" is not a time zone such as Asia/Shanghai or UTC`},
	} {
		r := defaults()
		c.edit(&r)
		_, err := r.Params("q")
		var se *setup.Error
		if !errors.As(err, &se) || se.Setting != c.setting || err.Error() != c.msg {
			t.Errorf("got %v (%#v), want %s: %s", err, se, c.setting, c.msg)
		}
	}
	// --no-budget alone is fine.
	r := defaults()
	r.NoBudget = true
	if _, err := r.Params("q"); err != nil {
		t.Error(err)
	}
}
