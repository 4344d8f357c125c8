module "m" {
  source   = "./m"
  count    = 1
  for_each = {}
}
