//go:build !race

package course_test

// raceDetector: the tests run without the race detector.
const raceDetector = false
