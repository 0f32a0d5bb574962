package timeexpr

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// Benchmarks of Find per query, with and without a time phrase. The
// figures and the command are in docs/performance.md, "Time expressions".
// cpu-ns/op is the CPU time of the benchmark's thread per query (Linux):
// on a loaded machine ns/op counts the time other work held the CPU too.

func longQuery(unit string, n int) string {
	var b strings.Builder
	for b.Len()+len(unit) <= n {
		b.WriteString(unit)
	}
	return b.String()
}

var benchQueries = []struct{ name, query string }{
	{"none/en/short", "how do I configure the rust toolchain for cross compiling"},
	{"none/zh/short", "想去海边玩"},
	{"none/zh/sentence", "我们讨论了数据库迁移的方案和风险，决定先做备份"},
	{"none/en/8192B", longQuery("the quick brown fox jumps over the lazy dog and we talk about the rust compiler ", 8192)},
	{"none/zh/8192B", longQuery("我们讨论了数据库迁移的方案和风险，决定先做备份。", 8192)},
	// Worst cases: every sentence holds words a phrase could be made of
	// (may, march, on, the; 上, 一, 天, 周), so the scan tries the grammar
	// all along.
	{"none/en/8192B-ambiguous", longQuery("the quick brown fox jumps over the lazy dog while we may march on ", 8192)},
	{"none/zh/8192B-ambiguous", longQuery("我们在上海讨论了一下如今天气和周围的方案。", 8192)},
	{"phrase/en/short", "what did we decide last week about the database"},
	{"phrase/en/range", "notes between March and May 2024 about rust"},
	{"phrase/zh/short", "上周去了哪里"},
	{"phrase/zh/date", "我2024年5月3日在杭州开会"},
}

func BenchmarkFind(b *testing.B) {
	now := time.Date(2025, 6, 18, 15, 0, 0, 0, shanghai)
	for _, c := range benchQueries {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.query)))
			b.ReportAllocs()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu := threadCPU()
			for b.Loop() {
				Find(c.query, now)
			}
			if cpu > 0 {
				b.ReportMetric(float64(threadCPU()-cpu)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

func BenchmarkWithout(b *testing.B) {
	q := "what did we decide last week about the database"
	m, _ := Find(q, time.Now())
	b.ReportAllocs()
	for b.Loop() {
		Without(q, m)
	}
}
