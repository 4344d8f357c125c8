resource "a_b" "c" {}
ÿþ
