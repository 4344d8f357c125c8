resource "a_b" "c" {}

resource "a_b" "c" {}
