resource "a_b" "1c" {}
