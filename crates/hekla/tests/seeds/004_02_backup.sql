-- Seed 004: full backups, so that the log is not truncated.
-- refused: 10794 backup and restore are out of scope
BACKUP DATABASE [DiskDB] TO  DISK = N'E:\MSSQLBackup\DiskDB.bak'
BACKUP DATABASE [HKDB] TO  DISK = N'E:\MSSQLBackup\HKDB.bak'
