/* SPDX-License-Identifier: GPL-2.0 */
/*
 * twin-table.c - the one table of the twin machine: a kernel driver, as
 * a bundle's drivers file names it (/sys/bus/BUS/drivers/DRIVER), and
 * the QEMU device that the driver binds, on the same kind of bus. The
 * QEMU names are those of "qemu-system-x86_64 -device help" (QEMU 7.2,
 * Debian 12) and all are on core/verify/vm-allow.c's list; the
 * modaliases are the QEMU devices' own as the guest sees them (those of
 * the project's QEMU bundles are copied from their modalias files), and
 * the kernel's modules.alias maps each to the module named here
 * (tests/unit/test_twin.c checks both against the fixtures).
 * docs/verify.md, "The twin machine", prints the table. A driver the
 * table does not know has no twin.
 */
#include <string.h>

#include "twin.h"

#define Q35	TWIN_Q35
#define PC	TWIN_PC

static const struct twin_rule rules[] = {
	/* ---- storage */
	{ "pci", "ahci", NULL, TR_HBA, "ich9-ahci", NULL, Q35, "ahci",
	  "pci:v00008086d00002922sv00001AF4sd00001100bc01sc06i01",
	  "q35's ICH9 AHCI at 00:1f.2; on pc a "
	  "ich9-ahci device" },
	{ "pci", "ata_piix", NULL, TR_HBA, NULL, NULL, PC, "ata_piix",
	  "pci:v00008086d00007010sv00001AF4sd00001100bc01sc01i80",
	  "pc's PIIX3 IDE at 00:01.1 (q35 has none)" },
	{ "pci", "nvme", NULL, TR_DISK, "nvme", NULL, 0, "nvme",
	  "pci:v00001B36d00000010sv00001AF4sd00001100bc01sc08i02",
	  "QEMU's NVMe controller, its namespace the "
	  "disk" },
	{ "virtio", "virtio_blk", NULL, TR_DISK, "virtio-blk-pci", NULL, 0,
	  "virtio_blk",
	  "virtio:d00000002v00001AF4",
	  "a virtio-blk disk" },
	{ "virtio", "virtio_scsi", NULL, TR_HBA, "virtio-scsi-pci", NULL, 0,
	  "virtio_scsi",
	  "virtio:d00000008v00001AF4",
	  "virtio-scsi, scsi-hd disks" },
	{ "pci", "sym53c8xx", NULL, TR_HBA, "lsi53c895a", NULL, 0,
	  "sym53c8xx",
	  "pci:v00001000d00000012sv00001AF4sd00001100bc01sc00i00",
	  "LSI 53C895A, scsi-hd disks" },
	{ "pci", "megaraid_sas", NULL, TR_HBA, "megasas-gen2", NULL, 0,
	  "megaraid_sas",
	  "pci:v00001000d00000078sv00001AF4sd00001100bc01sc04i00",
	  "MegaRAID SAS 2108" },
	{ "pci", "vmw_pvscsi", NULL, TR_HBA, "pvscsi", NULL, 0, "vmw_pvscsi",
	  "pci:v000015ADd000007C0sv00001AF4sd00001100bc01sc00i00",
	  "VMware PVSCSI" },
	{ "pci", "mptsas", NULL, TR_HBA, "mptsas1068", NULL, 0, "mptsas",
	  "pci:v00001000d00000054sv00001AF4sd00001100bc01sc00i00",
	  "LSI SAS 1068" },
	{ "pci", "sdhci-pci", NULL, TR_DEVICE, "sdhci-pci", NULL, 0,
	  "sdhci_pci",
	  "pci:v00001B36d00000007sv00001AF4sd00001100bc08sc05i01",
	  "QEMU's SDHCI controller (no "
	  "card)" },
	{ "usb", "usb-storage", NULL, TR_USBDISK, "usb-storage", NULL, 0,
	  "usb_storage", NULL, "a USB mass-storage disk (bulk-only)" },
	{ "scsi", "sd", NULL, TR_WITH, "a disk", NULL, 0, "sd_mod", NULL,
	  "the twin's SCSI and ATA disks" },
	{ "scsi", "sr", NULL, TR_NONE, NULL, NULL, 0, "sr_mod", NULL,
	  "an optical drive: the twin's disks are disks" },
	/* ---- network */
	{ "virtio", "virtio_net", NULL, TR_NIC, "virtio-net-pci", NULL, 0,
	  "virtio_net",
	  "virtio:d00000001v00001AF4",
	  "virtio-net, user-mode "
	  "network" },
	{ "pci", "e1000", NULL, TR_NIC, "e1000", NULL, 0, "e1000",
	  "pci:v00008086d0000100Esv00001AF4sd00001100bc02sc00i00",
	  "Intel 82540EM" },
	{ "pci", "e1000e", NULL, TR_NIC, "e1000e", NULL, 0, "e1000e",
	  "pci:v00008086d000010D3sv00001AF4sd00001100bc02sc00i00",
	  "Intel 82574L" },
	{ "pci", "igb", NULL, TR_NIC, "igb", NULL, 0, "igb",
	  "pci:v00008086d000010C9sv00001AF4sd00001100bc02sc00i00",
	  "Intel 82576 (QEMU 8.0 on)" },
	{ "pci", "8139cp", NULL, TR_NIC, "rtl8139", NULL, 0, "8139cp",
	  "pci:v000010ECd00008139sv00001AF4sd00001100bc02sc00i00",
	  "RTL8139C+ (QEMU's is revision 0x20)" },
	{ "pci", "8139too", NULL, TR_NONE, NULL, NULL, 0, "8139too", NULL,
	  "QEMU's rtl8139 is a C+ (revision 0x20), which 8139too leaves to "
	  "8139cp" },
	{ "pci", "vmxnet3", NULL, TR_NIC, "vmxnet3", NULL, 0, "vmxnet3",
	  "pci:v000015ADd000007B0sv00001AF4sd00001100bc02sc00i00",
	  "VMware vmxnet3" },
	{ "pci", "pcnet32", NULL, TR_NIC, "pcnet", NULL, 0, "pcnet32",
	  "pci:v00001022d00002000sv00001AF4sd00001100bc02sc00i00",
	  "AMD PCnet" },
	{ "pci", "ne2k-pci", NULL, TR_NIC, "ne2k_pci", NULL, 0, "ne2k_pci",
	  "pci:v000010ECd00008029sv00001AF4sd00001100bc02sc00i00",
	  "RTL8029 NE2000" },
	{ "pci", "e100", NULL, TR_NIC, "i82559er", NULL, 0, "e100",
	  "pci:v00008086d00001209sv00001AF4sd00001100bc02sc00i00",
	  "Intel 82559ER" },
	/* ---- USB */
	{ "pci", "xhci_hcd", NULL, TR_USBHC, "qemu-xhci", NULL, 0, "xhci_pci",
	  "pci:v00001B36d0000000Dsv00001AF4sd00001100bc0Csc03i30",
	  "QEMU's xHCI" },
	{ "pci", "ehci-pci", NULL, TR_USBHC, "ich9-usb-ehci1", NULL, 0,
	  "ehci_pci",
	  "pci:v00008086d0000293Asv00001AF4sd00001100bc0Csc03i20",
	  "ICH9 EHCI" },
	{ "pci", "uhci_hcd", NULL, TR_USBHC, "ich9-usb-uhci1",
	  "piix3-usb-uhci", 0, "uhci_hcd",
	  "pci:v00008086d00002934sv00001AF4sd00001100bc0Csc03i00",
	  "ICH9 UHCI (PIIX3's on pc)" },
	{ "pci", "ohci-pci", NULL, TR_USBHC, "pci-ohci", NULL, 0, "ohci_pci",
	  "pci:v0000106Bd0000003Fsv00001AF4sd00001100bc0Csc03i10",
	  "Apple KeyLargo OHCI" },
	{ "usb", "usb", NULL, TR_WITH, "a USB device", NULL, 0, NULL, NULL,
	  "every USB device and root hub" },
	{ "usb", "hub", NULL, TR_WITH, "a USB controller", NULL, 0, NULL,
	  NULL, "the controllers' root hubs" },
	{ "usb", "usbhid", NULL, TR_USBHID, "usb-kbd", NULL, 0, "usbhid",
	  NULL, "usb-kbd, usb-mouse or usb-tablet after the interface's "
	  "boot protocol (ip01, ip02, other)" },
	{ "hid", "hid-generic", NULL, TR_WITH, "a USB HID device", NULL, 0,
	  "hid_generic", NULL, "the HID device of a USB keyboard, mouse or "
	  "tablet" },
	{ "usb", "snd-usb-audio", NULL, TR_USBDEV, "usb-audio", NULL, 0,
	  "snd_usb_audio", NULL, "USB audio class device" },
	{ "usb", "uas", NULL, TR_NONE, NULL, NULL, 0, "uas", NULL,
	  "USB attached SCSI: QEMU's usb-uas is not on kctui's allow-list" },
	/* ---- audio */
	{ "pci", "snd_hda_intel", NULL, TR_HDA, "ich9-intel-hda",
	  "intel-hda", 0, "snd_hda_intel",
	  "pci:v00008086d0000293Esv00001AF4sd00001100bc04sc03i00",
	  "ICH9 HD Audio (ICH6's on pc) with an hda-duplex codec" },
	{ "hdaudio", "snd_hda_codec_generic", NULL, TR_WITH, "hda-duplex",
	  NULL, 0, "snd_hda_codec_generic", NULL, "QEMU's codec (vendor "
	  "1af4), driven by the generic parser" },
	{ "pci", "snd_intel8x0", NULL, TR_AUDIO, "AC97", NULL, 0,
	  "snd_intel8x0",
	  "pci:v00008086d00002415sv00001AF4sd00001100bc04sc01i00",
	  "Intel 82801AA AC'97" },
	{ "pci", "snd_ens1370", NULL, TR_AUDIO, "ES1370", NULL, 0,
	  "snd_ens1370",
	  "pci:v00001274d00005000sv00001AF4sd00001100bc04sc01i00",
	  "Ensoniq AudioPCI" },
	/* ---- display */
	{ "pci", "bochs-drm", NULL, TR_DEVICE, "VGA", NULL, 0, "bochs",
	  "pci:v00001234d00001111sv00001AF4sd00001100bc03sc00i00",
	  "QEMU's standard VGA (Bochs dispi)" },
	{ "virtio", "virtio_gpu", NULL, TR_DEVICE, "virtio-gpu-pci", NULL, 0,
	  "virtio_gpu",
	  "virtio:d00000010v00001AF4",
	  "virtio-gpu" },
	{ "pci", "qxl", NULL, TR_DEVICE, "qxl-vga", NULL, 0, "qxl",
	  "pci:v00001B36d00000100sv00001AF4sd00001100bc03sc00i00",
	  "QXL" },
	{ "pci", "cirrus", NULL, TR_DEVICE, "cirrus-vga", NULL, 0, "cirrus",
	  "pci:v00001013d000000B8sv00001AF4sd00001100bc03sc00i00",
	  "Cirrus CLGD 5446" },
	/* ---- watchdogs, panic, entropy, crypto, input, buses */
	{ "pci", "i6300ESB timer", NULL, TR_DEVICE, "i6300esb", NULL, 0,
	  "i6300esb",
	  "pci:v00008086d000025ABsv00001AF4sd00001100bc08sc80i00",
	  "Intel 6300ESB watchdog" },
	{ "platform", "iTCO_wdt", NULL, TR_MACHINE, NULL, NULL, Q35,
	  "iTCO_wdt", NULL, "the TCO watchdog of q35's ICH9 LPC" },
	{ "platform", "ib700wdt", NULL, TR_DEVICE, "ib700", NULL, 0,
	  "ib700wdt", NULL, "the ISA iB700 watchdog" },
	{ "pci", "pvpanic-pci", NULL, TR_DEVICE, "pvpanic-pci", NULL, 0,
	  "pvpanic_pci",
	  "pci:v00001B36d00000011sv00001AF4sd00001100bc08sc80i00",
	  "QEMU's panic device" },
	{ "platform", "pvpanic-mmio", NULL, TR_DEVICE, "pvpanic", NULL, 0,
	  "pvpanic_mmio", NULL, "QEMU's ISA panic device (QEMU0001)" },
	{ "virtio", "virtio_rng", NULL, TR_RNG, "virtio-rng-pci", NULL, 0,
	  "virtio_rng",
	  "virtio:d00000004v00001AF4",
	  "virtio-rng fed from the "
	  "host's /dev/urandom" },
	{ "virtio", "virtio_balloon", NULL, TR_DEVICE, "virtio-balloon-pci",
	  NULL, 0, "virtio_balloon",
	  "virtio:d00000005v00001AF4",
	  "virtio "
	  "balloon" },
	{ "virtio", "virtio_input", NULL, TR_DEVICE, "virtio-keyboard-pci",
	  NULL, 0, "virtio_input",
	  "virtio:d00000012v00001AF4",
	  "virtio input" },
	{ "virtio", "virtio_crypto", NULL, TR_CRYPTO, "virtio-crypto-pci",
	  NULL, 0, "virtio_crypto",
	  "virtio:d00000014v00001AF4",
	  "virtio-crypto "
	  "on QEMU's builtin backend" },
	{ "pci", "virtio-pci", NULL, TR_WITH, "its virtio device", NULL, 0,
	  "virtio_pci", NULL, "the PCI transport of the virtio device "
	  "under it" },
	{ "pci", "pcieport", NULL, TR_DEVICE, "pcie-root-port", NULL, 0,
	  NULL,
	  "pci:v00001B36d0000000Csv00001AF4sd00001100bc06sc04i00",
	  "a PCIe root port (q35 only)" },
	{ "pci_express", NULL, NULL, TR_WITH, "a PCIe root port", NULL, 0,
	  NULL, NULL, "the port services (aer, pme, pciehp)" },
	{ "virtio", "virtio_console", NULL, TR_NONE, NULL, NULL, 0,
	  "virtio_console", NULL, "virtio-serial needs a host chardev: not "
	  "on kctui's allow-list" },
	{ "virtio", "9pnet_virtio", NULL, TR_NONE, NULL, NULL, 0,
	  "9pnet_virtio", NULL, "a host directory shared over 9p" },
	{ "virtio", "virtio_fs", NULL, TR_NONE, NULL, NULL, 0, "virtiofs",
	  NULL, "a host directory (virtiofsd)" },
	{ "virtio", "vmw_vsock_virtio_transport", NULL, TR_NONE, NULL, NULL,
	  0, "vmw_vsock_virtio_transport", NULL, "vhost-vsock is a host "
	  "device" },
	{ "pnp", "tpm_tis", NULL, TR_NONE, NULL, NULL, 0, "tpm_tis", NULL,
	  "QEMU's TPM needs a host backend (swtpm or passthrough): not on "
	  "kctui's allow-list" },
	{ "platform", "tpm_tis", NULL, TR_NONE, NULL, NULL, 0, "tpm_tis",
	  NULL, "QEMU's TPM needs a host backend (swtpm or passthrough): "
	  "not on kctui's allow-list" },
	{ "acpi", "tpm_crb", NULL, TR_NONE, NULL, NULL, 0, "tpm_crb", NULL,
	  "QEMU's TPM needs a host backend (swtpm or passthrough): not on "
	  "kctui's allow-list" },
	{ "platform", "acpi-ged", NULL, TR_NONE, NULL, NULL, 0, NULL, NULL,
	  "the ACPI Generic Event Device of Firecracker and QEMU's microvm: "
	  "q35 and pc have none" },
	{ "platform", "vmgenid", NULL, TR_NONE, NULL, NULL, 0, "vmgenid",
	  NULL, "QEMU's vmgenid is not on kctui's allow-list" },
	/* ---- the PC itself: q35 and pc have these */
	{ "pci", "lpc_ich", NULL, TR_MACHINE, NULL, NULL, Q35, "lpc_ich",
	  NULL, "q35's ICH9 LPC bridge at 00:1f.0" },
	{ "pci", "i801_smbus", NULL, TR_MACHINE, NULL, NULL, Q35, "i2c_i801",
	  NULL, "q35's ICH9 SMBus at 00:1f.3" },
	{ "pci", "piix4_smbus", NULL, TR_MACHINE, NULL, NULL, PC,
	  "i2c_piix4", NULL, "pc's PIIX4 power management at 00:01.3" },
	{ "acpi", "button", "LNXPWRBN", TR_MACHINE, NULL, NULL, Q35 | PC,
	  "button", NULL, "the ACPI power button" },
	{ "acpi", "button", NULL, TR_NONE, NULL, NULL, 0, "button", NULL,
	  "a lid or sleep button: QEMU has only the power button" },
	{ "cpu", "processor", NULL, TR_MACHINE, NULL, NULL, Q35 | PC, NULL,
	  NULL, "the CPUs (smp)" },
	{ "platform", "i8042", NULL, TR_MACHINE, NULL, NULL, Q35 | PC, NULL,
	  NULL, "the PC's keyboard controller" },
	{ "pnp", "i8042 kbd", NULL, TR_MACHINE, NULL, NULL, Q35 | PC, NULL,
	  NULL, "the i8042's keyboard port" },
	{ "pnp", "i8042 aux", NULL, TR_MACHINE, NULL, NULL, Q35 | PC, NULL,
	  NULL, "the i8042's mouse port" },
	{ "serio", "atkbd", NULL, TR_MACHINE, NULL, NULL, Q35 | PC, "atkbd",
	  NULL, "QEMU's PS/2 keyboard" },
	{ "serio", "psmouse", NULL, TR_MACHINE, NULL, NULL, Q35 | PC,
	  "psmouse", NULL, "QEMU's PS/2 mouse" },
	{ "serio", "serio_raw", NULL, TR_MACHINE, NULL, NULL, Q35 | PC,
	  "serio_raw", NULL, "a PS/2 port" },
	{ "pnp", "rtc_cmos", NULL, TR_MACHINE, NULL, NULL, Q35 | PC, NULL,
	  NULL, "the MC146818 RTC" },
	{ "pnp", "serial", NULL, TR_MACHINE, NULL, NULL, Q35 | PC, NULL,
	  NULL, "the 16550 UART (the console, ttyS0)" },
	{ "platform", "serial8250", NULL, TR_MACHINE, NULL, NULL, Q35 | PC,
	  NULL, NULL, "the 8250 driver's legacy ports" },
	{ "pnp", "system", NULL, TR_MACHINE, NULL, NULL, Q35 | PC, NULL, NULL,
	  "the motherboard's resources" },
	{ "pnp", "parport_pc", NULL, TR_MACHINE, NULL, NULL, Q35 | PC,
	  "parport_pc", NULL, "the ISA parallel port ('legacy parallel')" },
	{ "platform", "pcspkr", NULL, TR_MACHINE, NULL, NULL, Q35 | PC,
	  "pcspkr", NULL, "the PC speaker" },
	{ "platform", "fw_cfg", NULL, TR_MACHINE, NULL, NULL, Q35 | PC,
	  "qemu_fw_cfg", NULL, "QEMU's firmware configuration device" },
	{ "acpi", "hpet", NULL, TR_MACHINE, NULL, NULL, Q35 | PC, NULL, NULL,
	  "the HPET" },
	/* ---- made by the kernel, whatever the hardware */
	{ "platform", "alarmtimer", NULL, TR_KERNEL, NULL, NULL, 0, NULL,
	  NULL, "the RTC's alarm timer" },
	{ "platform", "reg-dummy", NULL, TR_KERNEL, NULL, NULL, 0, NULL,
	  NULL, "the dummy regulator" },
	{ "platform", "regulatory", NULL, TR_KERNEL, NULL, NULL, 0,
	  "cfg80211", NULL, "cfg80211's regulatory device" },
	{ "platform", "snd-soc-dummy", NULL, TR_KERNEL, NULL, NULL, 0,
	  "snd_soc_core", NULL, "ASoC's dummy codec" },
	{ "platform", "kgdboc", NULL, TR_KERNEL, NULL, NULL, 0, NULL, NULL,
	  "kgdb's console" },
	{ "serial-base", "ctrl", NULL, TR_KERNEL, NULL, NULL, 0, NULL, NULL,
	  "the serial core's view of the machine's UARTs" },
	{ "serial-base", "port", NULL, TR_KERNEL, NULL, NULL, 0, NULL, NULL,
	  "the serial core's view of the machine's UARTs" },
	/* ---- known to have no twin (the rest have none either) */
	{ "pci", "iwlwifi", NULL, TR_NONE, NULL, NULL, 0, "iwlwifi", NULL,
	  "Intel Wi-Fi: QEMU has no wireless NIC" },
	{ "pci", "i915", NULL, TR_NONE, NULL, NULL, 0, "i915", NULL,
	  "Intel graphics: QEMU has no model of the GPU" },
	{ "pci", "xe", NULL, TR_NONE, NULL, NULL, 0, "xe", NULL,
	  "Intel graphics: QEMU has no model of the GPU" },
	{ "pci", "amdgpu", NULL, TR_NONE, NULL, NULL, 0, "amdgpu", NULL,
	  "AMD graphics: QEMU has no model of the GPU" },
	{ "pci", "nouveau", NULL, TR_NONE, NULL, NULL, 0, "nouveau", NULL,
	  "NVIDIA graphics: QEMU has no model of the GPU" },
	{ "pci", "nvidia", NULL, TR_NONE, NULL, NULL, 0, "nvidia", NULL,
	  "NVIDIA graphics (out of tree): QEMU has no model of the GPU" },
	{ "pci", "r8169", NULL, TR_NONE, NULL, NULL, 0, "r8169", NULL,
	  "Realtek 8169 family: QEMU has no model (its rtl8139 is 8139cp's)" },
	{ "pci", "tg3", NULL, TR_NONE, NULL, NULL, 0, "tg3", NULL,
	  "Broadcom Tigon3: QEMU has no model" },
	{ "pci", "igc", NULL, TR_NONE, NULL, NULL, 0, "igc", NULL,
	  "Intel I225/I226: QEMU has no model" },
	{ "pci", "snd_sof_pci_intel_tgl", NULL, TR_NONE, NULL, NULL, 0,
	  "snd_sof_pci_intel_tgl", NULL, "Intel SOF audio DSP: QEMU has no "
	  "model" },
	{ "pci", "mei_me", NULL, TR_NONE, NULL, NULL, 0, "mei_me", NULL,
	  "Intel ME: QEMU has no model" },
	{ "usb", "btusb", NULL, TR_NONE, NULL, NULL, 0, "btusb", NULL,
	  "Bluetooth: QEMU has no USB Bluetooth adapter kctui allows" },
	{ "usb", "uvcvideo", NULL, TR_NONE, NULL, NULL, 0, "uvcvideo", NULL,
	  "a camera: QEMU has no USB video device" },
	{ "hdaudio", NULL, NULL, TR_NONE, NULL, NULL, 0, NULL, NULL,
	  "a vendor's HD Audio codec: QEMU's codecs are generic (vendor "
	  "1af4)" },
	{ "hid", NULL, NULL, TR_NONE, NULL, NULL, 0, NULL, NULL,
	  "a vendor's HID driver: QEMU's HID devices are generic" },
};
#define NRULES (sizeof rules / sizeof rules[0])

/* The rule for a bound device: the first whose bus and driver match (a
 * NULL driver matches any, for a bus's catch-all) and, when it has one,
 * whose path_has is in the path. NULL: the table knows no twin. */
const struct twin_rule *
twin_rule_find(const char *bus, const char *driver, const char *path)
{
	size_t	i;

	for (i = 0; i < NRULES; i++) {
		if (strcmp(rules[i].bus, bus) != 0)
			continue;
		if (rules[i].driver != NULL &&
		    strcmp(rules[i].driver, driver) != 0)
			continue;
		if (rules[i].path_has != NULL &&
		    (path == NULL || strstr(path, rules[i].path_has) == NULL))
			continue;
		return &rules[i];
	}
	return NULL;
}

/* The i-th rule, or NULL past the end. */
const struct twin_rule *
twin_rule_at(size_t i)
{
	return i < NRULES ? &rules[i] : NULL;
}

/* File system types and how the twin tests them (see twin.h). */
static const struct {
	const char	*type;
	int		 kind;
	const char	*text;	/* 'm': the busybox mkfs; 0: why not */
} fs_kinds[] = {
	{ "ext4", 'd', NULL },
	{ "ext2", 'm', "mke2fs" },
	{ "vfat", 'm', "mkdosfs" },
	{ "msdos", 'm', "mkdosfs" },
	{ "tmpfs", 'p', NULL },
	{ "ramfs", 'p', NULL },
	{ "tracefs", 'p', NULL },
	{ "debugfs", 'p', NULL },
	{ "securityfs", 'p', NULL },
	{ "configfs", 'p', NULL },
	{ "cgroup2", 'p', NULL },
	{ "bpf", 'p', NULL },
	{ "pstore", 'p', NULL },
	{ "mqueue", 'p', NULL },
	{ "hugetlbfs", 'p', NULL },
	{ "binfmt_misc", 'p', NULL },
	{ "fusectl", 'p', NULL },
	{ "rootfs", 'i', NULL },
	{ "proc", 'i', NULL },
	{ "sysfs", 'i', NULL },
	{ "devtmpfs", 'i', NULL },
	{ "devpts", 'i', NULL },
	{ "ext3", 0, "no mkfs for ext3 here: the vm file makes ext4, busybox "
	  "ext2 and vfat" },
	{ "efivarfs", 0, "the twin boots SeaBIOS: no EFI variables" },
	{ "autofs", 0, "needs the automount daemon" },
	{ "cgroup", 0, "cgroup v1 needs the controllers' options" },
	{ "nfs", 0, "a network file system: no server in the twin" },
	{ "nfs4", 0, "a network file system: no server in the twin" },
	{ "cifs", 0, "a network file system: no server in the twin" },
	{ "smb3", 0, "a network file system: no server in the twin" },
	{ "9p", 0, "a host directory over 9p" },
	{ "virtiofs", 0, "a host directory (virtiofsd)" },
	{ "fuse", 0, "needs its FUSE daemon" },
	{ "fuseblk", 0, "needs its FUSE daemon" },
	{ "squashfs", 0, "needs an image: no mksquashfs in the guest" },
	{ "iso9660", 0, "needs an image: no mkisofs in the guest" },
	{ "overlay", 0, "needs the layers it was mounted on" },
	{ "selinuxfs", 0, "needs SELinux enabled" },
	{ "rpc_pipefs", 0, "needs the NFS client's daemons" },
	{ "nfsd", 0, "needs the NFS server's daemons" },
};

/* How a mounted file system type is tested (see twin.h). */
int
twin_fs_kind(const char *type, const char **mkfs, const char **why)
{
	size_t	i;

	*mkfs = NULL;
	*why = NULL;
	for (i = 0; i < sizeof fs_kinds / sizeof fs_kinds[0]; i++) {
		if (strcmp(fs_kinds[i].type, type) != 0)
			continue;
		if (fs_kinds[i].kind == 'm')
			*mkfs = fs_kinds[i].text;
		else if (fs_kinds[i].kind == 0)
			*why = fs_kinds[i].text;
		return fs_kinds[i].kind;
	}
	if (strncmp(type, "fuse.", 5) == 0)
		*why = "needs its FUSE daemon";
	else
		*why = "no mkfs for it in the twin (the vm file makes ext4, "
		    "busybox ext2 and vfat)";
	return 0;
}
