resource "a_b" "c" {
  x = data.a_d.missing.id
}
