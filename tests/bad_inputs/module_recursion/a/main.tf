module "again" {
  source = "../"
}
