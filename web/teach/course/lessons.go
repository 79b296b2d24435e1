package course

import (
	"twissandra/web/teach/course/blog"
	"twissandra/web/teach/course/celebrity"
	"twissandra/web/teach/course/compare"
	"twissandra/web/teach/course/consistency"
	"twissandra/web/teach/course/cql3"
	"twissandra/web/teach/course/partitions"
	"twissandra/web/teach/course/primer"
	"twissandra/web/teach/course/queryfirst"
	"twissandra/web/teach/course/slices"
	"twissandra/web/teach/course/time"
	"twissandra/web/teach/course/timeuuid"
	"twissandra/web/teach/course/tokens"
	"twissandra/web/teach/course/twissandra"
	"twissandra/web/teach/course/unique"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// lessons is the course, in its order: lesson 1 first. A new lesson is a package of its own
// below this one (its handler, its component and its test, in files named for it, exporting
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
		partitions.Lesson(h),
		celebrity.Lesson(h),
		compare.Lesson(h),
		tokens.Lesson(h),
		consistency.Lesson(h),
	}
	for i := range ls {
		ls[i].N = i + 1
	}
	return ls
}
