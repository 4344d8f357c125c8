module "net" {
  source = "./modules/net"
}
