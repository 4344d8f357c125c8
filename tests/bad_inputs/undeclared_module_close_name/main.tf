module "network" {
  source = "./network"
}

output "id" {
  value = module.netwrok.id
}
