package course

import (
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
	"twissandra/web/teach/lessons/blog"
	"twissandra/web/teach/lessons/celebrity"
	"twissandra/web/teach/lessons/collections"
	"twissandra/web/teach/lessons/compare"
	"twissandra/web/teach/lessons/consistency"
	"twissandra/web/teach/lessons/counters"
	"twissandra/web/teach/lessons/cql3"
	"twissandra/web/teach/lessons/indexes"
	"twissandra/web/teach/lessons/method"
	"twissandra/web/teach/lessons/partitions"
	"twissandra/web/teach/lessons/paths"
	"twissandra/web/teach/lessons/primer"
	"twissandra/web/teach/lessons/queryfirst"
	"twissandra/web/teach/lessons/slices"
	"twissandra/web/teach/lessons/time"
	"twissandra/web/teach/lessons/timeuuid"
	"twissandra/web/teach/lessons/tokens"
	"twissandra/web/teach/lessons/ttl"
	"twissandra/web/teach/lessons/twissandra"
	"twissandra/web/teach/lessons/unique"
)

// lessons is the course, in its order: lesson 1 first. A new lesson is a package of its own in
// web/teach/lessons (its handler, its component and its test, in files named for it, exporting
// Lesson) and a line here, where its place in the course is.
func lessons(h *labs.Handler) []frame.Lesson {
	ls := []frame.Lesson{
		primer.Lesson(h),
		slices.Lesson(h),
		time.Lesson(h),
		twissandra.Lesson(h),
		blog.Lesson(h),
		timeuuid.Lesson(h),
		unique.Lesson(h),
		cql3.Lesson(h),
		queryfirst.Lesson(h),
		method.Lesson(h),
		partitions.Lesson(h),
		celebrity.Lesson(h),
		compare.Lesson(h),
		tokens.Lesson(h),
		consistency.Lesson(h),
		indexes.Lesson(h),
		collections.Lesson(h),
		counters.Lesson(h),
		ttl.Lesson(h),
		paths.Lesson(h),
	}
	for i := range ls {
		ls[i].N = i + 1
	}
	return ls
}
