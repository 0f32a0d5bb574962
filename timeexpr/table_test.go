package timeexpr

import "testing"

func TestFindEnglish(t *testing.T) {
	checkParse(t, []parseCase{
		{"jun18", "what did I eat last week", "last week", "2025-06-09", "2025-06-16"},
		{"jun18", "today", "today", "2025-06-18", "2025-06-19"},
		{"jun18", "the day before yesterday", "the day before yesterday", "2025-06-16", "2025-06-17"},
		{"jun18", "three days ago", "three days ago", "2025-06-15", "2025-06-16"},
		{"jun18", "last Monday", "last Monday", "2025-06-16", "2025-06-17"},
		{"jun18", "notes in May", "in May", "2025-05-01", "2025-06-01"},
		{"jun18", "May 2024 trip", "May 2024", "2024-05-01", "2024-06-01"},
		{"jun18", "taxes in 2024", "in 2024", "2024-01-01", "2025-01-01"},
		{"jun18", "2024-05-03", "2024-05-03", "2024-05-03", "2024-05-04"},
		{"jun18", "since March", "since March", "2025-03-01", ""},
		{"jun18", "before June 2025", "before June 2025", "", "2025-06-01"},
		{"jun18", "between March and May", "between March and May", "2025-03-01", "2025-06-01"},
	})
}

func TestFindChinese(t *testing.T) {
	checkParse(t, []parseCase{
		{"jun18", "上周去了哪里", "上周", "2025-06-09", "2025-06-16"},
		{"jun18", "今天", "今天", "2025-06-18", "2025-06-19"},
		{"jun18", "三天前", "三天前", "2025-06-15", "2025-06-16"},
		{"jun18", "去年五月", "去年五月", "2024-05-01", "2024-06-01"},
		{"jun18", "2024年5月3日", "2024年5月3日", "2024-05-03", "2024-05-04"},
		{"jun18", "上周三", "上周三", "2025-06-11", "2025-06-12"},
	})
}

func TestFindRefuses(t *testing.T) {
	checkRefused(t, nows["jun18"], []string{
		"May I have coffee", "march forward", "a second opinion", "Sunday roast recipe",
		"三月兔", "一周年", "如今天气", "这周围",
	})
}
