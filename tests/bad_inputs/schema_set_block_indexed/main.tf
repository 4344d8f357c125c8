resource "aws_instance" "web" {
  ami = "ami-123"
  ebs_block_device {
    device_name = "sda"
  }
}

output "dev" {
  value = aws_instance.web.ebs_block_device.device_name
}
