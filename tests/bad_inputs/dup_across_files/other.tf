

resource "a_b" "c" {}
