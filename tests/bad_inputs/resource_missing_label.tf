resource "a_b" {}
