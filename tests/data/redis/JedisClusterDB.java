/*
 * A YCSB DB for the interop test: the calls YCSB's redis binding (site.ycsb.db.RedisClient, 0.17.0) makes
 * through the library it declares (Jedis 2.9.0), since that binding is not published on Maven Central.
 * Written for ycsbctl from the binding's behaviour: redis.cluster=true makes a JedisCluster that learns
 * the cluster from the one node redis.host:redis.port (the binding gives it no timeout and no password),
 * else one Jedis connection; a record is a hash at its own key; insert = HMSET, then ZADD of the key to
 * the sorted set "_indices" scored by the key's Java String.hashCode(); read = HGETALL (every field) or
 * HMGET (the fields asked for), and a record with no field is ERROR; update = HMSET; delete = DEL, then
 * ZREM only when DEL removed nothing (the binding's short-circuit); scan = ZRANGEBYSCORE of "_indices" from the start key's score, at most recordcount keys, then a
 * read of each.
 */
package ycsbctl.interop;

import java.io.Closeable;
import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;

import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisCommands;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

public class JedisClusterDB extends DB {
  private static final String INDEX = "_indices";
  private JedisCommands redis;

  @Override
  public void init() throws DBException {
    Properties p = getProperties();
    String host = p.getProperty("redis.host");
    int port = Integer.parseInt(p.getProperty("redis.port", "6379"));
    if (Boolean.parseBoolean(p.getProperty("redis.cluster"))) {
      redis = new JedisCluster(Collections.singleton(new HostAndPort(host, port)));
      return;
    }
    Jedis one = new Jedis(host, port, Integer.parseInt(p.getProperty("redis.timeout", "2000")));
    one.connect();
    if (p.getProperty("redis.password") != null) {
      one.auth(p.getProperty("redis.password"));
    }
    redis = one;
  }

  @Override
  public void cleanup() throws DBException {
    try {
      ((Closeable) redis).close();
    } catch (IOException e) {
      throw new DBException(e);
    }
  }

  private static double score(String key) {
    return key.hashCode();
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    if (fields == null) {
      StringByteIterator.putAllAsByteIterators(result, redis.hgetAll(key));
    } else {
      String[] names = fields.toArray(new String[0]);
      List<String> values = redis.hmget(key, names);
      for (int i = 0; i < names.length && i < values.size(); i++) {
        result.put(names[i], new StringByteIterator(values.get(i)));
      }
    }
    return result.isEmpty() ? Status.ERROR : Status.OK;
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    if (!"OK".equals(redis.hmset(key, StringByteIterator.getStringMap(values)))) {
      return Status.ERROR;
    }
    redis.zadd(INDEX, score(key), key);
    return Status.OK;
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return "OK".equals(redis.hmset(key, StringByteIterator.getStringMap(values))) ? Status.OK : Status.ERROR;
  }

  @Override
  public Status delete(String table, String key) {
    if (redis.del(key) != 0) {
      return Status.OK;
    }
    return redis.zrem(INDEX, key) == 0 ? Status.ERROR : Status.OK;
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
                     Vector<HashMap<String, ByteIterator>> result) {
    for (String key : redis.zrangeByScore(INDEX, score(startkey), Double.POSITIVE_INFINITY, 0, recordcount)) {
      HashMap<String, ByteIterator> values = new HashMap<>();
      read(table, key, fields, values);
      result.add(values);
    }
    return Status.OK;
  }
}
