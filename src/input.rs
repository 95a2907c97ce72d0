//! reading pages from files (placeholder)
